// Example rows for the public docs page and the OpenAPI document. The docs are public, so a
// sheet's own values appear only when Google already lets anyone with the link read it; for
// every other sheet the examples are made up from the column types.
import { config } from "@/lib/env";
import { createGoogleClients } from "@/lib/google/clients";
import { getLimitStore } from "@/lib/limits/store";
import { rowToJson, type JsonValue } from "@/lib/sheets/rows";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import { dataVersionKey, readTab } from "@/lib/sheets/tab-cache";
import type { ColumnType, SheetModel, TabModel } from "@/lib/sheets/tab-model";

export type ExampleRow = Record<string, JsonValue>;

const PLACEHOLDER: Record<ColumnType, string> = {
  string: "text",
  number: "42",
  boolean: "TRUE",
  date: "2024-01-31",
  datetime: "2024-01-31 09:30:00",
  currency: "$24.50",
  percent: "15%",
};

/** A made-up row: every column's type as an example value; ids 1, 2, ... */
export function placeholderRow(tab: TabModel, n = 1): ExampleRow {
  const row: ExampleRow = tab.hasIdColumn ? {} : { id: String(n + 1) };
  for (const c of tab.columns) row[c.name] = c.name === "id" ? String(n) : PLACEHOLDER[c.type];
  return row;
}

const LINK_CHECK_TTL_MS = 10 * 60_000;
const linkReadable = new Map<string, { readable: boolean; at: number }>();

/** True when Google serves the sheet to anyone with the link (checked with the API key, cached). */
async function isLinkReadable(sheetId: string): Promise<boolean> {
  const hit = linkReadable.get(sheetId);
  if (hit && Date.now() - hit.at < LINK_CHECK_TTL_MS) return hit.readable;
  let readable = false;
  try {
    const { sheets } = createGoogleClients(config().google, { kind: "apiKey" });
    await sheets.spreadsheets.get({ spreadsheetId: sheetId, fields: "spreadsheetId" });
    readable = true;
  } catch {
    readable = false;
  }
  linkReadable.set(sheetId, { readable, at: Date.now() });
  return readable;
}

export interface TabExamples {
  rows: ExampleRow[];
  /** True when the rows are the sheet's own (link-readable sheets only). */
  real: boolean;
}

// A public page must not spend the owner's Google quota on every view: examples are kept for a
// few minutes per schema version.
const EXAMPLES_TTL_MS = 5 * 60_000;
const examples = new Map<string, { at: number; value: Promise<Map<string, TabExamples>> }>();

/** Up to two example rows per tab: the sheet's first rows when it is link-readable, else made up. */
export async function exampleRows(sheet: SheetRecord, model: SheetModel): Promise<Map<string, TabExamples>> {
  const id = `${sheet.id}\u0000${model.updatedAt}`;
  const hit = examples.get(id);
  if (hit && Date.now() - hit.at < EXAMPLES_TTL_MS) return hit.value;
  if (examples.size > 1000) examples.clear();
  const value = readExamples(sheet, model);
  examples.set(id, { at: Date.now(), value });
  return value;
}

async function readExamples(sheet: SheetRecord, model: SheetModel): Promise<Map<string, TabExamples>> {
  const out = new Map<string, TabExamples>();
  const made = (tab: TabModel) => ({ rows: [placeholderRow(tab, 1), placeholderRow(tab, 2)], real: false });
  if (!(await isLinkReadable(sheet.id))) {
    for (const tab of model.tabs) out.set(tab.name, made(tab));
    return out;
  }
  const [version] = await getLimitStore().mget<number>([dataVersionKey(sheet.id)]).catch(() => [undefined]);
  await Promise.all(
    model.tabs.map(async (tab) => {
      try {
        const { data } = await readTab(sheet, tab, Number(version ?? 0));
        const rows = data.rows.slice(0, 2).map((r) => rowToJson(data, r));
        out.set(tab.name, rows.length ? { rows, real: true } : made(tab));
      } catch {
        out.set(tab.name, made(tab));
      }
    }),
  );
  return out;
}
