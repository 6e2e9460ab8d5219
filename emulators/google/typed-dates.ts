// Dates and times typed into the Sheets UI, read as Google reads them in the spreadsheet's locale
// (the locale's day/month order, ISO everywhere, times and durations). A day that does not exist
// (2/30/2024) stays text.
import type { Cell } from "./cells";
import type { LocaleRules } from "./locales";
import { dateToSerial } from "./number-format";

const DAY_SECONDS = 86_400;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The serial of a calendar day, or undefined when there is no such day. */
function daySerial(year: number, month: number, day: number): number | undefined {
  if (month < 1 || month > 12 || day < 1) return undefined;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: the latter reads years 0-99 as 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCMonth() === month - 1 ? dateToSerial(date) : undefined;
}

/** Four digits as written; two digits as Google reads them: 00-29 are 20xx, 30-99 are 19xx. */
function fullYear(text: string): number | undefined {
  if (text.length === 4) return Number(text);
  if (text.length === 2) return Number(text) + (Number(text) < 30 ? 2000 : 1900);
  return undefined; // one- or three-digit years: uncertain at Google, so the text stays text
}

/** h:mm or h:mm:ss of one day, 24-hour or, in English locales, with AM or PM: a fraction of a day. */
function timeOfDay(text: string, rules: LocaleRules): number | undefined {
  // Fractions of a second ("10:30:15.5") are uncertain at Google: no match, so text.
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(?: ?([ap]m))?$/i.exec(text);
  if (!m) return undefined;
  const [, h, min, s = "0", meridiem] = m;
  let hours = Number(h);
  if (meridiem) {
    if (!rules.meridiemInput || hours < 1 || hours > 12) return undefined;
    hours = (hours % 12) + (meridiem.toLowerCase() === "pm" ? 12 : 0);
  }
  if (hours > 23 || Number(min) > 59 || Number(s) > 59) return undefined;
  return (hours * 3600 + Number(min) * 60 + Number(s)) / DAY_SECONDS;
}

/** "25:30": hours past a day make a duration, which Sheets shows in elapsed hours ([h]:mm:ss). */
function duration(text: string): number | undefined {
  const m = /^(\d+):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!m || Number(m[1]) < 24 || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59) return undefined;
  return (Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0)) / DAY_SECONDS;
}

/** A day in the locale's own order ("M/d/yyyy" reads month, day, year); without a year, this year. */
function localDay(text: string, rules: LocaleRules, thisYear: () => number): number | undefined {
  const order = (rules.date.match(/[dmy]+/gi) ?? []).map((f) => f[0]!.toLowerCase()).join("");
  const separator = /[^dmy]/i.exec(rules.date)?.[0];
  if (!separator || order.length !== 3 || new Set(order).size !== 3) return undefined;
  const parts = text.split(separator);
  if (!parts.every((p) => /^\d{1,4}$/.test(p))) return undefined;
  // A year-less day only where dates are written with slashes: a German "1.2." or "1.2" is
  // uncertain at Google, so it stays text.
  const fields =
    parts.length === 3 ? order : parts.length === 2 && separator === "/" ? order.replace("y", "") : undefined;
  if (!fields) return undefined;
  const at = (field: string) => parts[fields.indexOf(field)] ?? "";
  if (at("d").length > 2 || at("m").length > 2) return undefined;
  const year = fields.includes("y") ? fullYear(at("y")) : thisYear();
  return year === undefined ? undefined : daySerial(year, Number(at("m")), Number(at("d")));
}

/** A typed date, date and time, time or duration with the format Sheets gives it; else undefined. */
export function typedDateTime(text: string, rules: LocaleRules, thisYear: () => number): Cell | undefined {
  const time = timeOfDay(text, rules);
  if (time !== undefined) return { value: time, format: { type: "TIME", pattern: rules.time } };
  const elapsed = duration(text);
  if (elapsed !== undefined) return { value: elapsed, format: { type: "TIME", pattern: "[h]:mm:ss" } };
  // One space between day and time; "2024-01-15T10:30" (ISO 8601's T) is uncertain at Google: text.
  const [, dayText = "", timeText] = /^(\S+)(?: (.+))?$/.exec(text) ?? [];
  const iso = ISO_DAY.exec(dayText);
  const day = iso ? daySerial(Number(iso[1]), Number(iso[2]), Number(iso[3])) : localDay(dayText, rules, thisYear);
  if (day === undefined) return undefined;
  if (timeText === undefined) return { value: day, format: { type: "DATE", pattern: iso ? "yyyy-mm-dd" : rules.date } };
  const at = timeOfDay(timeText, rules);
  if (at === undefined) return undefined;
  return { value: day + at, format: { type: "DATE_TIME", pattern: iso ? "yyyy-mm-dd hh:mm:ss" : rules.dateTime } };
}
