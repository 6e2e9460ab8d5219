// Numbers as a spreadsheet displays them in its own locale (properties.locale): "1,234.5" in
// en_US, "1.234,5" in de_DE, "1 234,5" in fr_FR (U+202F), with currency symbols, percent signs,
// parentheses or a minus for negatives, and Sheets' scientific notation ("1,23E+03").

interface Separators {
  decimal: string;
  group: string;
  /** Digits grouped and marked the locale's way: "1.234,5" in de_DE. */
  digits: RegExp;
}

const SPACES = /[\s\u00a0\u202f]/g;
const isSpace = (ch: string) => /^[\s\u00a0\u202f]$/.test(ch);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const separatorCache = new Map<string, Separators>();

/** A Sheets locale (`de_DE`) as a BCP 47 tag (`de-DE`); unknown shapes read as en-US. */
export function bcp47(locale: string): string {
  const tag = locale.replace(/_/g, "-");
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? "en-US";
  } catch {
    return "en-US";
  }
}

/** The locale's decimal and grouping marks, from the ICU data Node ships with. */
export function separators(locale: string): Separators {
  let found = separatorCache.get(locale);
  if (!found) {
    const parts = new Intl.NumberFormat(bcp47(locale)).formatToParts(1234567.5);
    const decimal = parts.find((p) => p.type === "decimal")?.value ?? ".";
    const group = parts.find((p) => p.type === "group")?.value ?? ",";
    const g = isSpace(group) ? "[ \\u00a0\\u202f]" : escape(group);
    found = { decimal, group, digits: new RegExp(`^(\\d{1,3}(?:${g}\\d{3})+|\\d*)(?:${escape(decimal)}(\\d+))?$`) };
    if (separatorCache.size > 200) separatorCache.clear();
    separatorCache.set(locale, found);
  }
  return found;
}

/**
 * A number as JSON writes it: what API clients send in filters ("1234.5", "-3", "2e3"). One way
 * to read each text: `\d+\.?\d*` split a run of digits every way, n x n steps on a long one.
 */
const PLAIN = /^-?(\d+(?:\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/** The digits of a displayed number, read with the locale's marks; undefined when they do not fit. */
function readDigits(core: string, { group, digits }: Separators): number | undefined {
  const m = digits.exec(core);
  if (!m || (m[1] === "" && m[2] === undefined)) return undefined;
  return Number(`${m[1]!.replace(SPACES, "").split(group).join("") || "0"}.${m[2] ?? "0"}`);
}

export interface DisplayedNumber {
  value: number;
  /** The display carried a `%`: `value` is already the fraction (15% -> 0.15). */
  percent: boolean;
}

/**
 * A displayed number in the sheet's locale, or undefined when the text is not one. Currency
 * symbols and codes around the number are ignored; anything else (a second number, a date like
 * "2024-01-15", words between digits) means it is not a number.
 */
export function parseDisplayedNumber(text: string, locale: string): DisplayedNumber | undefined {
  let t = text.trim();
  if (t === "") return undefined;
  let negative = false;
  if (/^\(.*\)$/.test(t)) {
    negative = true;
    t = t.slice(1, -1).trim();
  }
  const marks = separators(locale);
  const core = /[.,]?\d(?:[\d.,' \u00a0\u202f]*\d)?(?:[eE][+-]?\d+)?/.exec(t);
  if (!core) return undefined;
  const before = t.slice(0, core.index);
  const after = t.slice(core.index + core[0].length);
  // Around the number only signs, currency (a symbol or an ISO code) and a percent sign may stand.
  const rest = (x: string) => x.replace(/[-\u2212+%\s\u00a0\u202f\p{Sc}]/gu, "");
  if (![rest(before), rest(after)].every((x) => x === "" || /^[A-Z]{3}$/.test(x))) return undefined;
  if (/[-\u2212]/.test(before) || /^\s*-$/.test(after)) negative = !negative;
  const percent = /%/.test(before + after);
  const [mantissa, exponent] = core[0].split(/[eE]/) as [string, string | undefined];
  let n = readDigits(mantissa, marks);
  // A plain JSON-style number reads the same in every locale ("24.5" in a de_DE sheet).
  if (n === undefined && PLAIN.test(mantissa)) n = Number(mantissa);
  if (n === undefined) return undefined;
  if (exponent !== undefined) n *= 10 ** Number(exponent);
  const value = (negative ? -n : n) / (percent ? 100 : 1);
  return Number.isFinite(value) ? { value: percent ? Number(value.toPrecision(15)) : value, percent } : undefined;
}

/**
 * A number a client wrote in a filter: as JSON writes it ("1234.5"), else as the sheet shows
 * it ("1.234,5", "24,50 €", "15%").
 */
export function parseFilterNumber(text: string, locale: string): number | undefined {
  const t = text.trim();
  if (PLAIN.test(t)) return Number(t);
  return parseDisplayedNumber(t, locale)?.value;
}
