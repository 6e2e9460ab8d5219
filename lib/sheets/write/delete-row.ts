// Deleting one row by its id, by the coalesced batch path (write-batches.ts): exactly the row the
// id names on the tab as read in the tab's turn; with If-Match, only while it is as read.
import { OutcomeUnknown } from "@/lib/errors";
import { currentRow } from "./row-checks";
import { appendBlankRow, refusesDeletingEveryRow, rowsRange } from "./row-cells";
import { coalescedWrite } from "./write-batches";
import type { BatchKind } from "./batch-plan";
import { requireWritable, rowApi, type RowRequest } from "./write-request";

/** One delete a batch: its refusal (every row of the grid) is retried with a blank row appended first. */
const DELETE: BatchKind = {
  name: "delete",
  max: 1,
  marker: (_b, gid) => ({ sheetId: gid }),
  onRefused: (err, gid) => (refusesDeletingEveryRow(err) ? [appendBlankRow(gid)] : undefined),
};

/** Deletes the row; answers the message the client is told. */
export async function deleteRow(request: RowRequest): Promise<string> {
  const { sheet, tab, rowId } = request;
  requireWritable(sheet);
  await coalescedWrite(sheet, tab, DELETE, {
    plan: async (batch) => {
      const row = currentRow(batch.data, rowId, request.ifMatch ?? null);
      return {
        requests: [{ deleteDimension: { range: rowsRange(tab, row.rowNumber - 1, 1) } }],
        unknown: (writeId: number) =>
          new OutcomeUnknown(
            `Google Sheets did not confirm the delete of row ${rowId} in time; the outcome is unknown (it may still apply, to this row only: later writes to this tab wait until it is settled). Check with ${rowApi(sheet, tab.name, rowId)} before retrying.`,
            writeId,
          ),
        answer: () => ({ result: undefined, events: { deleted: row } }),
      };
    },
  });
  return `Row ${rowId} deleted from "${tab.name}".`;
}
