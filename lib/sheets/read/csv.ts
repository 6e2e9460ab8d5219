// Rows as CSV (RFC 4180): a header line, CRLF line ends, fields quoted when they hold a quote,
// comma or line break (quotes doubled). A cell that a spreadsheet would run as a formula when the
// file is opened (starting with = + - @, tab or carriage return) is prefixed with ' (OWASP's
// CSV-injection advice), unless it is a plain number such as -12.5, which stays as it is.
import type { JsonValue } from "@/lib/sheets/values/rows";

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

export function csvField(value: JsonValue): string {
  let text = value === null ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text) && !NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (fields: JsonValue[]) => `${fields.map(csvField).join(",")}\r\n`;

/** Streams the header and the rows in chunks, so a 100,000-row answer is never one string. */
export function csvStream(
  columns: string[],
  rows: Iterable<Record<string, JsonValue>>,
  chunkRows = 1000,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = rows[Symbol.iterator]();
  let header = true;
  return new ReadableStream({
    pull(controller) {
      let chunk = header ? csvLine(columns) : "";
      header = false;
      for (let n = 0; n < chunkRows; n++) {
        const next = iterator.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += csvLine(columns.map((c) => next.value[c] ?? null));
      }
      controller.enqueue(encoder.encode(chunk));
    },
  });
}
