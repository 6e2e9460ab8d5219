// Updating one row by its id, by the coalesced batch path (write-batches.ts): only the named
// cells are written, so a concurrent update of other fields survives; with If-Match, only while
// the row is as the client read it.
import { ApiError, OutcomeUnknown, quoted } from "@/lib/errors";
import { rowEtag, rowToJson, type JsonValue, type TabData, type TabRow } from "@/lib/sheets/values/rows";
import { checkColumns, checkRowShape, displayed, unknownColumnsOr, type RowInput } from "./row-input";
import { currentRow, refuseUnknownColumns } from "./row-checks";
import { cellUpdates } from "./row-cells";
import { asEntered } from "./value-input";
import { coalescedWrite } from "./write-batches";
import { WAIT, type BatchKind, type BatchPlan, type Planned } from "./batch-plan";
import { requireWritable, rowApi, type RowRequest } from "./write-request";

export type UpdatedRow = { row: Record<string, JsonValue>; etag: string };

const UPDATE: BatchKind = { name: "update", max: 100, marker: (_b, gid) => ({ sheetId: gid }) };

export async function updateRow(request: RowRequest): Promise<UpdatedRow> {
  const { sheet, tab, rowId } = request;
  requireWritable(sheet);
  const patch = checkRowShape(request.body);
  // A row read, edited and sent back whole carries its own id: that is no change, and is dropped.
  if ("id" in patch && patch.id !== null && displayed(patch.id) === rowId) delete patch.id;
  if ("id" in patch)
    throw new ApiError(
      "validation_error",
      `id cannot be changed: it identifies the row (this row's id is ${quoted(rowId)}).`,
    );
  if (!Object.keys(patch).length)
    throw new ApiError(
      "validation_error",
      "The body names only the row's own id: name at least one other column to change.",
    );
  await refuseUnknownColumns(sheet, tab, [patch], true);
  return coalescedWrite(sheet, tab, UPDATE, {
    readFailed: (err) => unknownColumnsOr(err, [patch], tab),
    plan: async (batch) => planUpdate(request, patch, batch),
  });
}

/** The update's part of the batch, planned on the tab as read in the tab's turn. */
function planUpdate(request: RowRequest, patch: RowInput, batch: BatchPlan): Planned<UpdatedRow> {
  const { sheet, tab, rowId } = request;
  const ifMatch = request.ifMatch ?? null;
  const { data } = batch;
  checkColumns([patch], data, { update: true });
  const row = currentRow(data, rowId, ifMatch);
  // An If-Match on a row the batch already updates is checked against the row that update leaves,
  // and an update guarded by one is checked against what only it changed: no other part may
  // touch its row in the same batch. Otherwise updates of one row share the batch: Google
  // applies them in order, as one after the other.
  if (batch.rows.has(row.rowNumber) && (ifMatch !== null || batch.guarded.has(row.rowNumber))) return WAIT;
  batch.rows.add(row.rowNumber);
  if (ifMatch !== null) batch.guarded.add(row.rowNumber);
  return {
    requests: asEntered(sheet, cellUpdates(data, tab, row, patch)),
    unknown: (writeId: number) =>
      new OutcomeUnknown(
        `Google Sheets did not confirm the update of row ${rowId} in time; the outcome is unknown (it may still apply, but never after a later write to this tab: those wait until it is settled). Check with ${rowApi(sheet, tab.name, rowId)} before retrying.`,
        writeId,
      ),
    answer: ({ grid }) => {
      // The row as the sheet now shows it (its number formats applied), read back in the write's
      // own answer: the body and ETag are what the next read returns. A write settled after a
      // timeout has no answer; then the row is given as written.
      const shown = grid ? (grid[row.rowNumber - 1]?.values ?? []) : undefined;
      const before = row.cells;
      const cells = data.columns.map((c, i) =>
        shown ? (shown[c.index]?.formattedValue ?? "") : c.name in patch ? displayed(patch[c.name]!) : before[i]!,
      );
      // Cells holding formulas may show a new value on any read (NOW(), RAND()): not a sign of another row.
      const formulas = data.columns
        .filter((c) => shown?.[c.index]?.userEnteredValue?.formulaValue !== undefined)
        .map((c) => c.name);
      const conflict = landedElsewhere(
        data,
        row,
        rowId,
        before,
        cells,
        shown !== undefined,
        ifMatch !== null,
        new Set([...Object.keys(patch), ...formulas]),
      );
      // Someone edited the sheet between the tab's read and Google applying the write. Google
      // has no conditional write to prevent it; the row read back in the write's own answer
      // shows it, and the client is told, never a 200.
      if (conflict)
        throw new ApiError(
          "conflict",
          `The sheet was edited while this update was applied: ${conflict} Check the row in the sheet.`,
        );
      const updated = { ...row, cells };
      return { result: { row: rowToJson(data, updated), etag: rowEtag(data, updated) }, events: { updated } };
    },
  };
}

/**
 * Why the row an update was written to is not the row asked for, from the row read back in the
 * write's own answer: on a tab with an id column, another id there; on a tab without one and an
 * If-Match, cells the update did not name changed meanwhile (the row asked for was a state, and
 * that state is gone); `skip`: the cells not to compare (those the update named, formulas).
 * Undefined when it is the row (or nothing was read back).
 */
function landedElsewhere(
  data: TabData,
  row: TabRow,
  rowId: string,
  before: string[],
  after: string[],
  readBack: boolean,
  ifMatch: boolean,
  skip: Set<string>,
): string | undefined {
  if (!readBack) return undefined;
  const id = data.columns.findIndex((c) => c.name === "id");
  if (data.hasIdColumn && id >= 0) {
    return after[id] === rowId
      ? undefined
      : `row ${row.rowNumber} of "${data.tab}" held id ${quoted(after[id]!)} by then, and the update was written to that row. Row ${quoted(rowId)} was not changed.`;
  }
  if (!ifMatch) return undefined;
  const changed = data.columns.filter((c, i) => !skip.has(c.name) && after[i] !== before[i]).map((c) => c.name);
  return changed.length
    ? `row ${row.rowNumber} of "${data.tab}" no longer matched If-Match (${changed.join(", ")} changed meanwhile), and the update was written to it.`
    : undefined;
}
