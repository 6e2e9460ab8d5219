const DAY_MS = 86_400_000;
// Every request names its day (usage, sheet stats): the text is made once per day, not per call.
let lastDay = { day: NaN, text: "" };

/** The UTC day of a Unix ms time, as YYYY-MM-DD. */
export function utcDay(at: number): string {
  const day = Math.floor(at / DAY_MS);
  if (day !== lastDay.day) lastDay = { day, text: new Date(day * DAY_MS).toISOString().slice(0, 10) };
  return lastDay.text;
}
