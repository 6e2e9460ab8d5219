// The sheet schema: read from Google on registration and on refresh, kept durably in Postgres
// (sheets.schema) and in process memory for the hot path. The sheet record's schemaUpdatedAt
// tells every instance when its memory copy is out of date.
import { getSheet, saveSheetSchema } from "@/db/queries/sheets";
import { withGoogle } from "@/lib/sheets/sheet-access";
import { readSheetModel } from "@/lib/sheets/read/read-model";
import { publishSheetQuietly, type SheetRecord } from "@/lib/sheets/sheet-record";
import { invalidateSheetData } from "@/lib/sheets/read/tab-cache";
import type { SheetModel } from "@/lib/sheets/values/tab-model";

type SchemaSheet = Pick<SheetRecord, "id" | "access" | "refreshTokenCiphertext" | "schemaUpdatedAt">;

const memory = new Map<string, SheetModel>();

/** Reads the structure from Google and stores it everywhere. */
export async function refreshSheetModel(sheet: SchemaSheet): Promise<SheetModel> {
  const model = await withGoogle(sheet, "spreadsheets.get", (clients) => readSheetModel(clients.sheets, sheet.id));
  const row = await saveSheetSchema({ id: sheet.id, schema: model, at: new Date(model.updatedAt), name: model.title });
  memory.set(sheet.id, model);
  await publishSheetQuietly(row);
  // A refresh drops both caches: the tab rows are read again too, on every instance.
  await invalidateSheetData(
    sheet.id,
    model.tabs.map((t) => t.name),
  ).catch(() => undefined);
  return model;
}

/** The schema from memory if current, else the durable copy, else Google. */
export async function getSheetModel(sheet: SchemaSheet): Promise<SheetModel> {
  const current = sheet.schemaUpdatedAt ?? 0;
  const hit = memory.get(sheet.id);
  if (hit && hit.updatedAt >= current) return hit;
  const stored = (await getSheet({ id: sheet.id }))?.schema as SheetModel | null | undefined;
  if (stored?.tabs && stored.updatedAt >= current) {
    memory.set(sheet.id, stored);
    return stored;
  }
  return refreshSheetModel(sheet);
}
