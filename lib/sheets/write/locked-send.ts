// How a write by value reaches Google, in its locked single step: its requests and marker as
// one guarded batch, the rows it wrote read back in the same answer.
import type { sheets_v4 } from "@googleapis/sheets";
import type { OutcomeUnknown } from "@/lib/errors";
import { quoteTab } from "@/lib/sheets/read/read-model";
import type { TabData, TabRow } from "@/lib/sheets/values/rows";
import type { TabModel } from "@/lib/sheets/values/tab-model";
import { displayed, type RowInput } from "./row-input";
import { asEntered } from "./value-input";
import { guardedWrite, markerRequest, type SheetsRequest } from "./write-guard";
import type { WriteRequest, WriteSheet } from "./write-request";

export const retryHint = (o: Pick<WriteRequest, "idempotencyKey">) =>
  o.idempotencyKey
    ? "Send the same request again with the same Idempotency-Key: it will not be applied twice."
    : "Read the rows before retrying (an Idempotency-Key lets a retry settle this for you).";

export function patched(data: TabData, row: TabRow, patch: RowInput): TabRow {
  const cells = row.cells;
  return { ...row, cells: data.columns.map((c, i) => (c.name in patch ? displayed(patch[c.name]!) : cells[i]!)) };
}

/** Bottom-up, contiguous rows merged: each deleteDimension's range stays valid after the ones before it. */
export function rowDeletes(model: TabModel, rows: TabRow[]): SheetsRequest[] {
  const numbers = [...new Set(rows.map((r) => r.rowNumber))].sort((a, b) => b - a);
  const ranges: [number, number][] = [];
  for (const n of numbers) {
    const last = ranges.at(-1);
    if (last && last[0] === n + 1) last[0] = n;
    else ranges.push([n, n]);
  }
  return ranges.map(([from, to]) => ({
    deleteDimension: { range: { sheetId: model.gid, dimension: "ROWS", startIndex: from - 1, endIndex: to } },
  }));
}

/** Contiguous row numbers as A1 row ranges (`'Tab'!4:6`). */
function rowRanges(model: TabModel, rowNumbers: number[]): string[] {
  const sorted = [...new Set(rowNumbers)].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const n of sorted) {
    const last = ranges.at(-1);
    if (last && last[1] === n - 1) last[1] = n;
    else ranges.push([n, n]);
  }
  return ranges.map(([from, to]) => `${quoteTab(model.name)}!${from}:${to}`);
}

/**
 * Sends the requests and the write's marker as one guarded batch; the rows numbered `readBack`
 * come back as the sheet now shows them (number formats applied), so answers and ETags are what
 * the next read gives. A write settled after a timeout has no answer: then rows are as written.
 */
export async function send(
  sheet: WriteSheet,
  model: TabModel,
  kind: string,
  requests: SheetsRequest[],
  unknown: (writeId: number) => OutcomeUnknown,
  {
    location = { sheetId: model.gid },
    readBack = [],
    idColumn,
  }: { location?: sheets_v4.Schema$DeveloperMetadataLocation; readBack?: number[]; idColumn?: number } = {},
): Promise<Map<number, string[]>> {
  const { updated } = await guardedWrite(
    sheet,
    model,
    kind,
    (writeId) => asEntered(sheet, [...requests, markerRequest(writeId, kind, location)], idColumn),
    unknown,
    { readBack: rowRanges(model, readBack) },
  );
  const shown = new Map<number, string[]>();
  for (const tab of updated?.sheets ?? []) {
    for (const grid of tab.data ?? [])
      grid.rowData?.forEach((r, k) =>
        shown.set(
          (grid.startRow ?? 0) + k + 1,
          (r.values ?? []).map((v) => v.formattedValue ?? ""),
        ),
      );
  }
  return shown;
}

/** A row as the sheet shows it after the write, when read back; else as written. */
export function asShown(data: TabData, row: TabRow, shown: Map<number, string[]>): TabRow {
  const cells = shown.get(row.rowNumber);
  return cells ? { ...row, cells: data.columns.map((c) => cells[c.index] ?? "") } : row;
}
