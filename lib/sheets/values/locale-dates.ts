// Dates as a spreadsheet displays them, read back into ISO 8601 with the column's pattern, the
// locale's date order or as ISO, in the spreadsheet's time zone (README.md).
import { bcp47 } from "./locale-numbers";

/** A wall-clock date and time, as the sheet shows it. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** False when the display had no time of day. */
  hasTime: boolean;
  /** The fields the display actually showed ("yMdhms", "Y" for a two-digit year; a pattern like "mmm d" shows no year). */
  shown?: string;
}

const TOKEN = /"[^"]*"|\\.|am\/pm|a\/p|y+|m+|d+|h+|s+|\.0+|[^"\\]/gi;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const fold = (s: string) => s.toLocaleLowerCase().replace(/\.$/, "");

interface Parser {
  regex: RegExp;
  fields: ((wall: WallClock, text: string) => boolean)[];
  /** Which wall-clock field each capture sets: y, M, d, h, m or s. */
  kinds: string[];
}

const parsers = new Map<string, Parser>();
const monthNames = new Map<string, string[][]>();

/** Long and short month names of a locale, folded for matching. */
function months(locale: string): string[][] {
  let names = monthNames.get(locale);
  if (!names) {
    const tag = bcp47(locale);
    const of = (month: "long" | "short") => new Intl.DateTimeFormat(tag, { month, timeZone: "UTC" });
    names = Array.from({ length: 12 }, (_, m) => [
      fold(of("long").format(Date.UTC(2024, m, 1))),
      fold(of("short").format(Date.UTC(2024, m, 1))),
    ]);
    monthNames.set(locale, names);
  }
  return names;
}

const setter =
  (key: Exclude<keyof WallClock, "hasTime" | "shown">, time = false) =>
  (wall: WallClock, text: string) => {
    wall[key] = Number(text);
    if (time) wall.hasTime = true;
    return true;
  };

/** Compiles a Sheets date pattern into a matcher of its display. */
function parserFor(pattern: string, locale: string): Parser {
  const key = `${locale}\u0000${pattern}`;
  let parser = parsers.get(key);
  if (parser) return parser;
  const tokens = pattern.match(TOKEN) ?? [];
  const isField = (t: string) => /^[ymdhs]+$/i.test(t);
  const fields: Parser["fields"] = [];
  const kinds: string[] = [];
  let source = "";
  tokens.forEach((t, at) => {
    const lower = t.toLowerCase();
    const field = (regex: string, set: Parser["fields"][number], kind = "") => {
      source += `(${regex})`;
      fields.push(set);
      kinds.push(kind);
    };
    if (t.startsWith('"')) source += escape(t.slice(1, -1));
    else if (t.startsWith("\\")) source += escape(t.slice(1));
    else if (lower === "am/pm" || lower === "a/p") {
      field("[ap]m?", (wall, text) => {
        const pm = text.toLowerCase().startsWith("p");
        wall.hour = (wall.hour % 12) + (pm ? 12 : 0);
        return true;
      });
    } else if (/^\.0+$/.test(t)) source += "(?:[.,]\\d+)?";
    else if (lower[0] === "y")
      field(
        lower.length <= 2 ? "\\d{2}" : "\\d{4}",
        (wall, text) => {
          wall.year = text.length === 2 ? (Number(text) < 30 ? 2000 : 1900) + Number(text) : Number(text);
          return true;
        },
        lower.length <= 2 ? "Y" : "y",
      );
    else if (lower[0] === "d") {
      if (lower.length >= 3)
        source += "[^\\s\\d,.]+\\.?"; // the weekday name tells nothing new
      else field("\\d{1,2}", setter("day"), "d");
    } else if (lower[0] === "h") field("\\d{1,2}", setter("hour", true), "h");
    else if (lower[0] === "s") field("\\d{1,2}", setter("second", true), "s");
    else if (lower[0] === "m") {
      const before = tokens.slice(0, at).filter(isField).at(-1);
      const after = tokens.slice(at + 1).find(isField);
      if (lower.length <= 2 && (/^h/i.test(before ?? "") || /^s/i.test(after ?? "")))
        field("\\d{1,2}", setter("minute", true), "m");
      else if (lower.length <= 2) field("\\d{1,2}", setter("month"), "M");
      else if (lower.length <= 4) {
        field(
          "[^\\s\\d,]+",
          (wall, text) => {
            const name = fold(text);
            const index = months(locale).findIndex(
              ([long, short]) => long === name || short === name || (name.length >= 3 && long!.startsWith(name)),
            );
            wall.month = index + 1;
            return index >= 0;
          },
          "M",
        );
      } else source += "[^\\s\\d,]"; // one letter names no month for sure
    } else source += /\s/.test(t) ? "[\\s\\u00a0\\u202f]+" : escape(t);
  });
  parser = { regex: new RegExp(`^${source}$`, "i"), fields, kinds };
  if (parsers.size > 500) parsers.clear();
  parsers.set(key, parser);
  return parser;
}

function parseWith(text: string, pattern: string, locale: string): WallClock | undefined {
  const { regex, fields, kinds } = parserFor(pattern, locale);
  const m = regex.exec(text.trim());
  if (!m) return undefined;
  const wall: WallClock = {
    year: 1899,
    month: 12,
    day: 30,
    hour: 0,
    minute: 0,
    second: 0,
    hasTime: false,
    shown: kinds.join(""),
  };
  if (!fields.every((set, i) => set(wall, m[i + 1]!))) return undefined;
  const check = new Date(Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second));
  if (
    check.getUTCDate() !== wall.day ||
    check.getUTCMonth() !== wall.month - 1 ||
    wall.hour > 23 ||
    wall.minute > 59 ||
    wall.second > 59
  )
    return undefined;
  return wall;
}

const defaultPatterns = new Map<string, string[]>();

/** The locale's short numeric date ("dd.MM.yyyy", "M/d/yyyy", ...) with and without a time, and ISO. */
function localePatterns(locale: string): string[] {
  let patterns = defaultPatterns.get(locale);
  if (!patterns) {
    const parts = new Intl.DateTimeFormat(bcp47(locale), {
      year: "numeric",
      month: "numeric",
      day: "numeric",
      timeZone: "UTC",
    }).formatToParts(Date.UTC(2024, 10, 25));
    const date = parts
      .map((p) => (p.type === "year" ? "yyyy" : p.type === "month" ? "M" : p.type === "day" ? "d" : p.value))
      .join("");
    patterns = [];
    for (const d of [date, "yyyy-mm-dd"])
      patterns.push(d, `${d} h:mm:ss`, `${d} h:mm`, `${d} h:mm:ss am/pm`, `${d} h:mm am/pm`);
    patterns.push('yyyy-mm-dd"T"hh:mm:ss', 'yyyy-mm-dd"T"hh:mm');
    defaultPatterns.set(locale, patterns);
  }
  return patterns;
}

const MAX_DATE_TEXT = 120;

/** A displayed date or date-time, read with the column's pattern first, then the locale's defaults. */
export function parseDisplayedDate(text: string, pattern: string | undefined, locale: string): WallClock | undefined {
  // No date display is this long; a pattern's adjacent name fields read longer text in n x n steps.
  if (text.length > MAX_DATE_TEXT || !/\d/.test(text)) return undefined;
  for (const p of pattern ? [pattern, ...localePatterns(locale)] : localePatterns(locale)) {
    const wall = parseWith(text, p, locale);
    if (wall) return wall;
  }
  return undefined;
}

/** A wall clock as a number that orders like time (milliseconds, as if it were UTC). */
export const wallClockMs = (w: WallClock) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** Minutes the zone is ahead of UTC at the instant `utcMs`; 0 for a zone Node does not know. */
function zoneOffsetMinutes(timeZone: string, utcMs: number): number {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
    } catch {
      return 0;
    }
    zoneFormats.set(timeZone, format);
  }
  const p = Object.fromEntries(format.formatToParts(utcMs).map((x) => [x.type, Number(x.value)]));
  const local = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return Math.round((local - Math.floor(utcMs / 1000) * 1000) / 60_000);
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

export const isoDate = (w: WallClock) => `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;

/** The wall clock in the sheet's time zone as ISO 8601 with that zone's offset ("2024-06-17T12:00:00+02:00"). */
export function isoDateTime(w: WallClock, timeZone: string): string {
  const wallMs = wallClockMs(w);
  // The offset at the instant this wall clock names (guess, then correct once across a DST change).
  let offset = zoneOffsetMinutes(timeZone, wallMs);
  offset = zoneOffsetMinutes(timeZone, wallMs - offset * 60_000);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${isoDate(w)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${offset === 0 ? "Z" : `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`}`;
}

/**
 * A date a client wrote in a filter, as a wall clock in the sheet's time zone: ISO 8601
 * ("2024-01-15", "2024-01-15T09:45", with `Z` or an offset converted to the sheet's zone), else
 * as the sheet shows dates.
 */
export function parseFilterDate(
  text: string,
  pattern: string | undefined,
  locale: string,
  timeZone: string,
): number | undefined {
  const t = text.trim();
  const zoned = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:\d{2})$/.exec(t);
  if (zoned) {
    const instant = Date.parse(t);
    if (Number.isNaN(instant)) return undefined;
    return Math.floor(instant / 1000) * 1000 + zoneOffsetMinutes(timeZone, instant) * 60_000;
  }
  const wall = parseDisplayedDate(t, pattern, locale);
  return wall ? wallClockMs(wall) : undefined;
}

// Sheets stores a date as a serial number: days since 1899-12-30 (the Lotus 1-2-3 epoch), the
// fraction the time of day, as a wall clock in the spreadsheet's time zone.
const SERIAL_EPOCH_MS = Date.UTC(1899, 11, 30);

/** A serial number's wall clock, to the second (0.40625 is 09:45:00, as Sheets shows it); `dayOnly` drops the time of day. */
export function serialWallClock(serial: number, dayOnly = false): WallClock {
  const seconds = Math.round(serial * 86_400);
  const d = new Date(SERIAL_EPOCH_MS + (dayOnly ? Math.floor(seconds / 86_400) * 86_400 : seconds) * 1000);
  const hasTime = d.getUTCHours() + d.getUTCMinutes() + d.getUTCSeconds() > 0;
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    hasTime,
  };
}

const FIELD: Record<string, keyof WallClock> = { y: "year", M: "month", d: "day", h: "hour", m: "minute", s: "second" };

/**
 * Whether a cell's serial number is the date its display shows, on every field the display has
 * ("Jan 15" says nothing of the year). The two come from separate reads of the sheet: a serial
 * read after an edit or a row insert the display copy does not have yet must not be paired with
 * another cell's text. A display that reads as no date at all cannot disagree.
 */
export function serialMatchesDisplay(
  serial: number,
  text: string,
  pattern: string | undefined,
  locale: string,
): boolean {
  const shown = parseDisplayedDate(text, pattern, locale);
  if (!shown) return true;
  const wall = serialWallClock(serial);
  // A two-digit year ("1/1/35") shows the year's last two digits: the serial says which century.
  return [...(shown.shown ?? "")].every((k) =>
    k === "Y" ? wall.year % 100 === shown.year % 100 : !FIELD[k] || wall[FIELD[k]] === shown[FIELD[k]],
  );
}
