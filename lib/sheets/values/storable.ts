// U+0000 is the one character Postgres cannot hold in text or jsonb, and Google may hand it out
// in any cell or name. Names the service keys on (tabs, header cells) are refused where they are
// read (lib/sheets/read/read-model.ts); values it only records are stored with U+FFFD.
export const hasNul = (text: string): boolean => text.includes("\u0000");

/** The text with each NUL replaced by U+FFFD (the replacement character), as it is stored. */
export const withoutNul = (text: string): string => (hasNul(text) ? text.replaceAll("\u0000", "\uFFFD") : text);

/** A JSON value with every NUL in its strings, keys included, replaced by U+FFFD. */
export function storableJson<T>(value: T): T {
  if (typeof value === "string") return withoutNul(value) as T;
  if (Array.isArray(value)) return value.map(storableJson) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [withoutNul(k), storableJson(v)])) as T;
  }
  return value;
}
