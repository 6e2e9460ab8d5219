// The sheet schema: read from Google on registration and on refresh, kept durably in Postgres
// (sheets.schema) and in process memory for the hot path.
import { saveSheetSchema } from "@/db/queries/sheets";
import type { Sheet } from "@/db/schema";
import { withGoogle } from "./google-access";
import { readSheetModel } from "./read-model";
import type { SheetModel } from "./tab-model";

const MEMORY_TTL_MS = 30_000;
const memory = new Map<string, { model: SheetModel; cachedAt: number }>();

type SchemaSheet = Pick<Sheet, "id" | "access" | "refreshTokenCiphertext" | "schema">;

/** Reads the structure from Google and stores it everywhere. */
export async function refreshSheetModel(sheet: SchemaSheet): Promise<SheetModel> {
  const model = await withGoogle(sheet, (clients) => readSheetModel(clients.sheets, sheet.id));
  await saveSheetSchema({ id: sheet.id, schema: model, at: new Date(model.updatedAt), name: model.title });
  memory.set(sheet.id, { model, cachedAt: Date.now() });
  return model;
}

/** The schema from memory, else the durable copy, else Google. */
export async function getSheetModel(sheet: SchemaSheet): Promise<SheetModel> {
  const hit = memory.get(sheet.id);
  const stored = sheet.schema as SheetModel | null;
  // A newer durable copy (another instance refreshed) wins over what this process remembers.
  if (hit && Date.now() - hit.cachedAt < MEMORY_TTL_MS && (!stored || stored.updatedAt <= hit.model.updatedAt)) return hit.model;
  if (stored?.tabs) {
    memory.set(sheet.id, { model: stored, cachedAt: Date.now() });
    return stored;
  }
  return refreshSheetModel(sheet);
}

export function forgetSheetModel(sheetId: string): void {
  memory.delete(sheetId);
}
