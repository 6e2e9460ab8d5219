// Creating rows (DECISIONS 4-7a), by the coalesced batch path. Read top-down: createRows checks
// the body and queues it; planCreate, in the tab's turn, decides the rows' ids and place on the
// tab as read; createdPart builds the requests and what the client is told once Google answers
// (or does not). A batch of creates costs two Google calls: the tab's read, one batchUpdate.
import type { sheets_v4 } from "@googleapis/sheets";
import { ApiError, OutcomeUnknown, quoted } from "@/lib/errors";
import { rowToJson, type JsonValue, type TabData } from "@/lib/sheets/values/rows";
import { checkColumns, displayed, rowsOfCreateBody, unknownColumnsOr, type RowInput } from "./row-input";
import { refuseUnknownColumns } from "./row-checks";
import { assignIds, withEarlierIds } from "./row-ids";
import { insertRows, newRowCells } from "./row-cells";
import { asEntered, idColumnOf } from "./value-input";
import { coalescedWrite } from "./write-batches";
import { WAIT, type BatchKind, type BatchPlan, type Part, type Planned } from "./batch-plan";
import { earlierLanded, requireWritable, rowApi, type CreateRequest, type EarlierLanded } from "./write-request";

export type CreateResult = { created: number; rows: Record<string, JsonValue>[] };

/** A batch's marker sits on the rows its creates insert (one range: they follow each other). */
const CREATE: BatchKind = {
  name: "create",
  max: 100,
  marker: (b, gid) => ({
    dimensionRange: { sheetId: gid, dimension: "ROWS", startIndex: b.data.lastRowNumber, endIndex: b.nextRow },
  }),
};
/** Rows one batch of creates inserts at most (a request's own 1,000 always go alone). */
const MAX_BATCH_ROWS = 1000;

/**
 * Creates rows at the end of the tab's data (after its last non-blank row, whatever blank rows
 * or blank A1 it has), in one atomic batch: rows inserted there, their values, their marker.
 * With `earlierWrite` (an earlier attempt under the same Idempotency-Key whose outcome was
 * unknown) that landed, nothing is written and "earlier-landed" is returned.
 */
export async function createRows(request: CreateRequest): Promise<CreateResult | EarlierLanded> {
  const { sheet, tab } = request;
  requireWritable(sheet);
  const asked = rowsOfCreateBody(request.body);
  await refuseUnknownColumns(sheet, tab, asked, false);
  return coalescedWrite<CreateResult | EarlierLanded>(sheet, tab, CREATE, {
    readFailed: (err) => unknownColumnsOr(err, asked, tab),
    plan: (batch) => planCreate(request, asked, batch),
  });
}

/** The create's part of the batch, planned on the tab as read in the tab's turn. */
async function planCreate(
  request: CreateRequest,
  asked: RowInput[],
  batch: BatchPlan,
): Promise<Planned<CreateResult | EarlierLanded>> {
  const { sheet, tab } = request;
  if (await earlierLanded(request)) return { done: "earlier-landed" };
  const { data } = batch;
  checkColumns(asked, data, { update: false });
  const rows = data.hasIdColumn ? withEarlierIds(asked, data, request.earlierAnswer) : asked;
  // An id the batch already writes is decided after that write: 409 then, never a second row.
  if (rows.some((row) => row.id !== null && row.id !== undefined && batch.ids.has(String(row.id)))) return WAIT;
  const inBatch = batch.nextRow - data.lastRowNumber;
  if (inBatch > 0 && inBatch + rows.length > MAX_BATCH_ROWS) return WAIT;
  const ids = data.hasIdColumn ? await assignIds(sheet, tab, data, rows) : [];
  ids.forEach((id) => batch.ids.add(id));
  // Row index (0-based) of the first new row: right after the last row holding anything, or the batch's rows before these.
  const at = batch.nextRow;
  batch.nextRow += rows.length;
  return createdPart(request, { data, rows, ids, at });
}

interface PlannedRows {
  data: TabData;
  rows: RowInput[];
  ids: string[];
  /** Row index (0-based) of the first new row. */
  at: number;
}

/** The requests, and what the client is told when the batch lands, is refused, or has no answer. */
function createdPart(request: CreateRequest, planned: PlannedRows): Part<CreateResult> {
  const { sheet, tab, idempotencyKey } = request;
  const { data, rows, ids, at } = planned;
  const span = rows.length > 1 ? ` to ${at + rows.length}` : "";
  const how = data.hasIdColumn
    ? `Check with ${rowApi(sheet, tab.name, ids[0]!)}${ids.length > 1 ? ` (ids ${ids.join(", ")})` : ""}`
    : `Check by listing the tab (the rows would be at row ${at + 1}${span})`;
  const retry = idempotencyKey
    ? "send the same request again with the same Idempotency-Key: it will not be written twice"
    : "retry with an Idempotency-Key next time so a retry cannot write twice";
  return {
    requests: asEntered(sheet, insertRows(tab, at, newRowCells(data, rows, ids)), idColumnOf(data)),
    unknown: (writeId) =>
      new OutcomeUnknown(
        `Google Sheets did not confirm the new row${rows.length > 1 ? "s" : ""} in time; the outcome is unknown (it may still land, once). ${how}, or ${retry}. No other write to this tab goes out before this one is settled.`,
        writeId,
        createdAnswer(planned, at + 1),
      ),
    // The new rows as the sheet shows them (the formats they inherit applied), from the write's own
    // answer; found after a timeout, where the marker says the rows are now.
    answer: ({ grid, shift, after }) => {
      const result = createdAnswer(planned, at + shift + 1, grid?.slice(at, at + rows.length));
      // Someone edited the sheet between the tab's read and Google applying the write: the
      // rows are written, but maybe not as planned. The client is told, never a 201.
      const edited = after && editedMeanwhile(data, after, ids);
      if (edited)
        throw new ApiError(
          "conflict",
          `The sheet was edited while ${rows.length > 1 ? "these rows were" : "this row was"} created: ${edited} The row${rows.length > 1 ? "s were" : " was"} written at row ${at + 1}${span}: check ${rows.length > 1 ? "them" : "it"} in the sheet.`,
        );
      return { result, events: { created: result.rows } };
    },
  };
}

/** As the sheet shows the new rows (read back in the write's answer); as written when a write settled after a timeout has no answer. */
function createdAnswer(
  { data, rows, ids }: PlannedRows,
  firstRow: number,
  shown?: sheets_v4.Schema$RowData[],
): CreateResult {
  return {
    created: rows.length,
    rows: rows.map((row, i) => {
      const readBack = shown?.[i]?.values;
      const cells = data.columns.map((c) =>
        readBack
          ? (readBack[c.index]?.formattedValue ?? "")
          : c.name === "id" && data.hasIdColumn
            ? ids[i]!
            : displayed(row[c.name] ?? null),
      );
      return rowToJson(data, { rowNumber: firstRow + i, id: data.hasIdColumn ? ids[i]! : String(firstRow + i), cells });
    }),
  };
}

/**
 * What an edit in the sheet changed between the read a create was planned on and the create's own
 * read-back: the columns (the values may be in others than named), or a new id typed in another
 * row too. Undefined when neither.
 */
function editedMeanwhile(before: TabData, after: TabData, ids: string[]): string | undefined {
  const header = (data: TabData) => data.columns.map((c) => `${c.name}@${c.index}`).join(",");
  if (header(before) !== header(after))
    return `its columns changed (now ${after.columns.map((c) => c.name).join(", ")}), so the values may be in other columns than named.`;
  const doubled = ids.filter((id) => after.rows.filter((r) => r.id === id).length > 1);
  return doubled.length
    ? `another row now holds the id${doubled.length > 1 ? "s" : ""} ${doubled.map(quoted).join(", ")} too.`
    : undefined;
}
