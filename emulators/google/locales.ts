// What a spreadsheet's locale changes in FORMATTED_VALUE: separators, number format patterns,
// month and day names. Three tested locales are spelled out as Google shows them; others come from
// Node's ICU data. user-entered.ts follows the same rules.

export interface LocaleRules {
  decimal: string;
  group: string;
  date: string;
  dateTime: string;
  time: string;
  currency: string;
  months: string[];
  monthsShort: string[];
  days: string[];
  daysShort: string[];
  /** The words the UI reads as TRUE and FALSE besides TRUE and FALSE themselves (de_DE: WAHR, FALSCH). */
  booleanWords?: [string, string];
  /** Whether a typed time may carry AM or PM: English locales only. */
  meridiemInput: boolean;
}

const KNOWN: Record<
  string,
  Pick<LocaleRules, "decimal" | "group" | "date" | "dateTime" | "time" | "currency" | "booleanWords">
> = {
  en_US: {
    decimal: ".",
    group: ",",
    date: "M/d/yyyy",
    dateTime: "M/d/yyyy H:mm:ss",
    time: "h:mm:ss am/pm",
    currency: '"$"#,##0.00',
  },
  en_GB: {
    decimal: ".",
    group: ",",
    date: "dd/MM/yyyy",
    dateTime: "dd/MM/yyyy HH:mm:ss",
    time: "HH:mm:ss",
    currency: '"£"#,##0.00',
  },
  de_DE: {
    decimal: ",",
    group: ".",
    date: "dd.MM.yyyy",
    dateTime: "dd.MM.yyyy HH:mm:ss",
    time: "HH:mm:ss",
    currency: "#,##0.00 [$€]",
    booleanWords: ["WAHR", "FALSCH"],
  },
  // Google groups French numbers with U+202F NARROW NO-BREAK SPACE.
  fr_FR: {
    decimal: ",",
    group: "\u202f",
    date: "dd/MM/yyyy",
    dateTime: "dd/MM/yyyy HH:mm:ss",
    time: "HH:mm:ss",
    currency: "#,##0.00 [$€]",
  },
};

const cache = new Map<string, LocaleRules>();

function names(tag: string, option: "month" | "weekday", width: "long" | "short"): string[] {
  const format = new Intl.DateTimeFormat(tag, { [option]: width, timeZone: "UTC" });
  // 2024-01-01 was a Monday; Sheets' `dddd` counts from Sunday.
  return option === "month"
    ? Array.from({ length: 12 }, (_, m) => format.format(Date.UTC(2024, m, 1)))
    : Array.from({ length: 7 }, (_, d) => format.format(Date.UTC(2023, 11, 31 + d)));
}

export function localeRules(locale: string): LocaleRules {
  let rules = cache.get(locale);
  if (rules) return rules;
  const tag = /^[a-z]{2,3}(_[A-Z]{2})?$/.test(locale) ? locale.replace("_", "-") : "en-US";
  let known = Object.hasOwn(KNOWN, locale) ? KNOWN[locale] : undefined;
  if (!known) {
    const parts = new Intl.NumberFormat(tag).formatToParts(1234567.5);
    known = {
      ...KNOWN.en_US!,
      decimal: parts.find((p) => p.type === "decimal")?.value ?? ".",
      group: parts.find((p) => p.type === "group")?.value ?? ",",
    };
  }
  rules = {
    ...known,
    months: names(tag, "month", "long"),
    monthsShort: names(tag, "month", "short"),
    days: names(tag, "weekday", "long"),
    daysShort: names(tag, "weekday", "short"),
    meridiemInput: tag.startsWith("en"),
  };
  cache.set(locale, rules);
  return rules;
}
