// Text written with USER_ENTERED, or pasted, read as the Sheets UI reads what a person types in the
// spreadsheet's locale. Where Google's reading is not known for sure the text stays text, so no
// product comes to rely on parsing Google may not do (emulators/google/README.md).
import type { Cell, NumberFormat, Scalar } from "./cells";
import { localeRules, type LocaleRules } from "./locales";
import { typedDateTime } from "./typed-dates";

/** Where and when the spreadsheet is: a date typed without a year takes the current one there. */
export interface EntryClock {
  timeZone?: string;
  now?: number;
}

interface TypedNumber {
  value: number;
  grouped: boolean;
  decimals: boolean;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Digits as the locale writes them: "1234.5", "1,234.5", ".5" in en_US; "1.234,5" in de_DE. */
function unsigned(text: string, rules: LocaleRules): TypedNumber | undefined {
  // Groups of exactly three digits: "1,23" in en_US is uncertain at Google, so it stays text.
  const grouped = rules.group ? `|\\d{1,3}(?:${escape(rules.group)}\\d{3})+` : "";
  const m = new RegExp(`^(\\d+${grouped})?(?:${escape(rules.decimal)}(\\d+))?$`).exec(text);
  if (!m || (m[1] === undefined && m[2] === undefined)) return undefined;
  const whole = (m[1] ?? "0").split(rules.group || "\u0000").join("");
  return { value: Number(`${whole}.${m[2] ?? "0"}`), grouped: whole !== (m[1] ?? "0"), decimals: m[2] !== undefined };
}

/** A leading + or -; parentheses are no negative sign in Sheets' input ("(5)" stays text). */
function signed(text: string, parse: (body: string) => TypedNumber | undefined): TypedNumber | undefined {
  const sign = text[0] === "-" || text[0] === "+" ? text[0] : "";
  const n = parse(text.slice(sign.length));
  return n && { ...n, value: sign === "-" ? -n.value : n.value };
}

/** "1e3", "1.5E-2": a mantissa in the locale's decimals and a power of ten. */
function scientific(text: string, rules: LocaleRules): number | undefined {
  const d = escape(rules.decimal);
  const m = new RegExp(`^([+-]?(?:\\d+(?:${d}\\d+)?|${d}\\d+))[eE]([+-]?\\d+)$`).exec(text);
  const value = m ? Number(`${m[1]!.replace(rules.decimal, ".")}e${m[2]}`) : NaN;
  return Number.isFinite(value) ? value : undefined;
}

/** The locale's currency symbol and its side, from its pattern ('"$"#,##0.00', "#,##0.00 [$€]"). */
function currencyOf(pattern: string): { symbol: string; before: boolean } | undefined {
  const m = /"([^"]+)"|\[\$([^\]-]+)[^\]]*\]/.exec(pattern);
  const symbol = (m?.[1] ?? m?.[2])?.trim();
  return m && symbol ? { symbol, before: m.index < pattern.search(/[0#]/) } : undefined;
}

/**
 * An amount written as the locale writes it: "$1,234.50" and "-$5" in en_US, "1.234,50 €" and
 * "1234,5€" in de_DE. Another currency, the symbol on the other side, or a space after a leading
 * symbol are uncertain at Google and stay text.
 */
function currency(text: string, rules: LocaleRules): TypedNumber | undefined {
  const where = currencyOf(rules.currency);
  if (!where) return undefined;
  const { symbol, before } = where;
  return signed(text, (body) => {
    if (before) return body.startsWith(symbol) ? unsigned(body.slice(symbol.length), rules) : undefined;
    if (!body.endsWith(symbol)) return undefined;
    return unsigned(body.slice(0, -symbol.length).replace(/[ \u00a0]$/, ""), rules);
  });
}

/** TRUE and FALSE in any case, and the locale's own words for them. */
function typedBoolean(text: string, rules: LocaleRules): boolean | undefined {
  const upper = text.toUpperCase();
  const [yes, no] = rules.booleanWords ?? [];
  if (upper === "TRUE" || upper === yes) return true;
  if (upper === "FALSE" || upper === no) return false;
  return undefined;
}

function currentYear({ timeZone = "Etc/UTC", now = Date.now() }: EntryClock): number {
  try {
    return Number(new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric" }).format(now));
  } catch {
    return new Date(now).getUTCFullYear(); // a zone Node does not know: UTC
  }
}

const numberCell = (value: number, format?: NumberFormat): Cell => (format ? { value, format } : { value });

/** A value written with USER_ENTERED: parsed as if typed into the UI of a sheet in that locale. */
export function userEnteredCell(v: Scalar, rules: LocaleRules = localeRules("en_US"), clock: EntryClock = {}): Cell {
  if (typeof v !== "string") return { value: v };
  if (v.startsWith("=")) return { value: v, formula: true };
  // A leading apostrophe makes the rest text, and is not part of the value.
  if (v.startsWith("'")) return { value: v.slice(1) };
  const t = v.trim();
  const bool = typedBoolean(t, rules);
  if (bool !== undefined) return { value: bool };
  const plain = signed(t, (body) => unsigned(body, rules));
  // Typed grouping keeps showing (uncertain at Google: which pattern, "#,##0.00" or as typed).
  if (plain)
    return numberCell(
      plain.value,
      plain.grouped ? { type: "NUMBER", pattern: plain.decimals ? "#,##0.00" : "#,##0" } : undefined,
    );
  const power = scientific(t, rules);
  if (power !== undefined) return numberCell(power, { type: "SCIENTIFIC", pattern: "0.00E+00" });
  const percent = /^(.+?) ?%$/.exec(t);
  const share = percent && signed(percent[1]!, (body) => unsigned(body, rules));
  // Typed decimals keep showing (uncertain at Google: "0.00%" or as many places as typed).
  if (share) return numberCell(share.value / 100, { type: "PERCENT", pattern: share.decimals ? "0.00%" : "0%" });
  const money = currency(t, rules);
  if (money) return numberCell(money.value, { type: "CURRENCY", pattern: rules.currency });
  return typedDateTime(t, rules, () => currentYear(clock)) ?? { value: v };
}
