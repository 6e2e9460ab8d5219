// Gives a tab without an `id` column one (DECISIONS 7a: row-number ids move when rows above are
// inserted or deleted), in one guarded write by the locked single step path (README.md, "The id
// column").
import { ApiError, OutcomeUnknown } from "@/lib/errors";
import { cellData } from "./row-cells";
import { nextIds } from "./row-ids";
import { lockedStep } from "./tab-turn";
import { requireWritable, type WriteSheet } from "./write-request";
import { refreshSheetModel } from "@/lib/sheets/read/schema";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import { fetchTab } from "@/lib/sheets/read/tab-cache";
import type { TabModel } from "@/lib/sheets/values/tab-model";
import { guardedWrite, markerRequest } from "./write-guard";

export async function addIdColumn(
  sheet: WriteSheet & Pick<SheetRecord, "schemaUpdatedAt">,
  model: TabModel,
): Promise<{ column: number; rows: number }> {
  requireWritable(sheet);
  const result = await lockedStep(sheet, model, async () => {
    const data = await fetchTab(sheet, model);
    if (data.hasIdColumn) throw new ApiError("conflict", `The tab "${model.name}" already has an id column.`);
    const column = data.columns.length ? Math.max(...data.columns.map((c) => c.index)) + 1 : 0;
    const numbered = new Map(data.rows.map((r, i) => [r.rowNumber, i + 1]));
    const cells = [
      cellData("id"),
      ...Array.from({ length: data.lastRowNumber - 1 }, (_, i) => cellData(numbered.get(i + 2) ?? null)),
    ];
    await guardedWrite(
      sheet,
      model,
      "id-column",
      (writeId) => [
        {
          insertDimension: {
            range: { sheetId: model.gid, dimension: "COLUMNS", startIndex: column, endIndex: column + 1 },
            inheritFromBefore: false,
          },
        },
        {
          updateCells: {
            start: { sheetId: model.gid, rowIndex: 0, columnIndex: column },
            rows: cells.map((c) => ({ values: [c] })),
            fields: "userEnteredValue",
          },
        },
        markerRequest(writeId, "id-column", { sheetId: model.gid }),
      ],
      (writeId) =>
        new OutcomeUnknown(
          `Google Sheets did not confirm the new id column of "${model.name}" in time; the outcome is unknown. Refresh the schema in a moment to see whether it is there.`,
          writeId,
        ),
    );
    await nextIds(sheet.id, model, data.rows.length, 0);
    return { column, rows: data.rows.length };
  });
  await refreshSheetModel(sheet);
  return result;
}
