// Number format patterns as Sheets renders them (developers.google.com/sheets/api/guides/formats):
// the pattern's symbols are the same in every locale; the locale supplies the decimal and
// grouping separators and the month and day names.
import type { LocaleRules } from "./locales";

// Sheets counts days from 1899-12-30 (the Lotus 1-2-3 epoch), in the spreadsheet's own time zone.
const EPOCH_MS = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

export function serialToDate(serial: number): Date {
  // Rounded to the second, as Sheets shows times: 0.40625 days is 09:45:00, never 09:44:59.
  return new Date(EPOCH_MS + Math.round(serial * 86_400) * 1000);
}

export function dateToSerial(date: Date): number {
  return (date.getTime() - EPOCH_MS) / DAY_MS;
}

/** Splits a pattern on `;` outside quotes: positive;negative;zero;text sections. */
function sections(pattern: string): string[] {
  const out: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '"') quoted = !quoted;
    if (ch === "\\" && !quoted) {
      current += ch + (pattern[++i] ?? "");
      continue;
    }
    if (ch === ";" && !quoted) {
      out.push(current);
      current = "";
      continue;
    }
    current += ch;
  }
  out.push(current);
  return out;
}

type Token = { kind: "literal"; text: string } | { kind: "number"; text: string };

/** Literal text (quoted, escaped, `[$€]` currency, `_x` spacing) and the run of digit placeholders. */
function tokenize(section: string): Token[] {
  const tokens: Token[] = [];
  const literal = (text: string) => tokens.push({ kind: "literal", text });
  for (let i = 0; i < section.length; i++) {
    const ch = section[i]!;
    if (ch === '"') {
      const end = section.indexOf('"', i + 1);
      literal(section.slice(i + 1, end < 0 ? undefined : end));
      i = end < 0 ? section.length : end;
    } else if (ch === "\\") literal(section[++i] ?? "");
    else if (ch === "[") {
      const end = section.indexOf("]", i);
      const inner = section.slice(i + 1, end < 0 ? undefined : end);
      if (inner.startsWith("$")) literal(inner.slice(1).split("-")[0]!); // [$€-407] shows €
      i = end < 0 ? section.length : end; // colours and conditions show nothing
    } else if (ch === "_") {
      literal(" ");
      i++;
    } else if (ch === "*") i++;
    else if (
      "0#?.,".includes(ch) ||
      (/[eE]/.test(ch) && /[+-]/.test(section[i + 1] ?? "") && tokens.at(-1)?.kind === "number")
    ) {
      const last = tokens.at(-1);
      const piece = /[eE]/.test(ch) ? ch + section[++i] : ch;
      if (last?.kind === "number") last.text += piece;
      else tokens.push({ kind: "number", text: piece });
    } else literal(ch);
  }
  return tokens;
}

function group(digits: string, separator: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

function renderNumber(value: number, spec: string, scale: number, rules: LocaleRules): string {
  const [mantissaSpec, exponentSpec] = spec.split(/[eE][+-]/) as [string, string | undefined];
  // Trailing commas after the last placeholder divide by a thousand each.
  const trailing = /,+$/.exec(mantissaSpec)?.[0].length ?? 0;
  const body = mantissaSpec.slice(0, mantissaSpec.length - trailing);
  const [intSpec, fracSpec = ""] = body.split(".") as [string, string | undefined];
  const grouping = intSpec.includes(",");
  const minInt = (intSpec.match(/0/g) ?? []).length;
  const minFrac = (fracSpec.match(/0/g) ?? []).length;
  const maxFrac = (fracSpec.match(/[0#?]/g) ?? []).length;
  let n = (Math.abs(value) * scale) / 1000 ** trailing;
  let exponent = "";
  if (exponentSpec !== undefined) {
    const e = n === 0 ? 0 : Math.floor(Math.log10(n));
    n /= 10 ** e;
    exponent = `E${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(exponentSpec.length, "0")}`;
  }
  let [whole, fraction = ""] = n.toFixed(maxFrac).split(".") as [string, string | undefined];
  while (fraction.length > minFrac && fraction.endsWith("0")) fraction = fraction.slice(0, -1);
  if (whole === "0" && minInt === 0 && fraction) whole = "";
  whole = whole.padStart(minInt, "0");
  if (grouping) whole = group(whole, rules.group);
  return `${whole}${fraction ? rules.decimal + fraction : ""}${exponent}`;
}

/** A number under a NUMBER, CURRENCY or PERCENT pattern. */
export function formatNumber(value: number, pattern: string, rules: LocaleRules): string {
  const parts = sections(pattern);
  let section = parts[0]!;
  let sign = value < 0 ? "-" : "";
  if (value < 0 && parts[1] !== undefined && parts[1] !== "") {
    section = parts[1];
    sign = "";
  } else if (value === 0 && parts[2] !== undefined && parts[2] !== "") section = parts[2];
  const tokens = tokenize(section);
  const scale = tokens.some((t) => t.kind === "literal" && t.text === "%") ? 100 : 1;
  let out = "";
  for (const t of tokens) out += t.kind === "literal" ? t.text : renderNumber(value, t.text, scale, rules);
  return sign + out;
}

/** Sheets' "Automatic" format: up to 10 significant digits, no grouping, the locale's decimal mark. */
export function formatGeneral(value: number, rules: LocaleRules): string {
  return String(Number(value.toPrecision(10))).replace(".", rules.decimal);
}

const DATE_TOKEN = /"[^"]*"|\\.|am\/pm|a\/p|\[(?:h+|m+|s+)\]|y+|m+|d+|h+|s+|\.0+|[^"\\]/gi;

/** A date, time or date-time serial under a DATE, TIME or DATE_TIME pattern. */
export function formatDateTime(serial: number, pattern: string, rules: LocaleRules): string {
  const d = serialToDate(serial);
  const tokens = pattern.match(DATE_TOKEN) ?? [];
  const twelveHour = tokens.some((t) => /^(am\/pm|a\/p)$/i.test(t));
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  const isHour = (t: string | undefined) => t !== undefined && /^\[?h+\]?$/i.test(t);
  const isSecond = (t: string | undefined) => t !== undefined && /^\[?s+\]?$/i.test(t);
  const isField = (t: string) => /^\[?[ymdhs]+\]?$/i.test(t);
  // Elapsed units ([h]:mm:ss, a duration) count the whole serial, not the time of day.
  const elapsedSeconds = Math.round(serial * 86_400);
  const elapsed = { h: Math.floor(elapsedSeconds / 3600), m: Math.floor(elapsedSeconds / 60), s: elapsedSeconds };
  return tokens
    .map((t, at) => {
      const lower = t.toLowerCase();
      if (t.startsWith('"')) return t.slice(1, -1);
      if (t.startsWith("\\")) return t.slice(1);
      // Google's format guide: am/pm shows AM or PM, always capitalized; a/p follows the token's case.
      if (lower === "am/pm") return d.getUTCHours() < 12 ? "AM" : "PM";
      if (lower === "a/p") return (d.getUTCHours() < 12 ? "a" : "p")[t[0] === "A" ? "toUpperCase" : "toLowerCase"]();
      if (/^\[[hms]+\]$/.test(lower)) return pad(elapsed[lower[1] as "h" | "m" | "s"], lower.length - 2);
      if (/^\.0+$/.test(t)) return rules.decimal + pad(d.getUTCMilliseconds(), 3).slice(0, t.length - 1);
      const hours = twelveHour ? ((d.getUTCHours() + 11) % 12) + 1 : d.getUTCHours();
      switch (lower[0]) {
        case "y":
          return lower.length <= 2 ? pad(d.getUTCFullYear() % 100) : String(d.getUTCFullYear());
        case "d":
          if (lower.length >= 4) return rules.days[d.getUTCDay()]!;
          if (lower.length === 3) return rules.daysShort[d.getUTCDay()]!;
          return lower.length === 2 ? pad(d.getUTCDate()) : String(d.getUTCDate());
        case "h":
          return lower.length === 2 ? pad(hours) : String(hours);
        case "s":
          return lower.length === 2 ? pad(d.getUTCSeconds()) : String(d.getUTCSeconds());
        case "m": {
          // `m` is minutes right after an hour or right before seconds, else the month.
          const before = tokens.slice(0, at).filter(isField).at(-1);
          const after = tokens.slice(at + 1).find(isField);
          if (lower.length <= 2 && (isHour(before) || isSecond(after)))
            return lower.length === 2 ? pad(d.getUTCMinutes()) : String(d.getUTCMinutes());
          if (lower.length >= 5) return rules.months[d.getUTCMonth()]!.slice(0, 1);
          if (lower.length === 4) return rules.months[d.getUTCMonth()]!;
          if (lower.length === 3) return rules.monthsShort[d.getUTCMonth()]!;
          return lower.length === 2 ? pad(d.getUTCMonth() + 1) : String(d.getUTCMonth() + 1);
        }
        default:
          return t;
      }
    })
    .join("");
}
