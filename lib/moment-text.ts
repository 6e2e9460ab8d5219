// Moments as the pages write them: `2026-11-27 14:05 UTC`, in a time zone of the reader's. The
// server renders UTC (it cannot know the reader's zone) and the browser the same shape in its own
// zone (app/components/local-time.tsx), so a reader in UTC sees the text unchanged.

/** How much of a moment is shown: the day, the day and time, or the time of day only. */
export type MomentShape = "day" | "minute" | "second" | "clock" | "clock-seconds";

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      timeZoneName: "short",
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** `at` in `timeZone` (an IANA name; UTC when the runtime does not know it), as `shape` says. */
export function momentText(at: Date | string | number, shape: MomentShape, timeZone = "UTC"): string {
  const instant = new Date(at);
  if (Number.isNaN(instant.getTime())) return "unknown";
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = formatIn(timeZone).formatToParts(instant);
  } catch {
    parts = formatIn("UTC").formatToParts(instant);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  const day = `${part("year")}-${part("month")}-${part("day")}`;
  const clock = `${part("hour")}:${part("minute")}`;
  const zone = part("timeZoneName");
  switch (shape) {
    case "day":
      return day;
    case "minute":
      return `${day} ${clock} ${zone}`;
    case "second":
      return `${day} ${clock}:${part("second")} ${zone}`;
    case "clock":
      return `${clock} ${zone}`;
    case "clock-seconds":
      return `${clock}:${part("second")} ${zone}`;
  }
}

/** The reader's own time zone, in the browser (UTC where the runtime cannot say). */
export function readerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}
