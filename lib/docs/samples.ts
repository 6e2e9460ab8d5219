// Example rows for the public docs page and the OpenAPI document. The docs are public, so a
// sheet's own values appear only when Google already lets anyone with the link read it; for
// every other sheet the examples are made up from the column types.
import { config } from "@/lib/env";
import { createGoogleClients } from "@/lib/google/clients";
import { getLimitStore } from "@/lib/store/store";
import { rowToJson, type JsonValue } from "@/lib/sheets/values/rows";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import { dataVersionKey, readTab } from "@/lib/sheets/read/tab-cache";
import type { ColumnType, SheetModel, TabModel } from "@/lib/sheets/values/tab-model";

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
  const row: ExampleRow = Object.create(null);
  if (!tab.hasIdColumn) row.id = String(n + 1);
  for (const c of tab.columns) row[c.name] = c.name === "id" ? String(n) : PLACEHOLDER[c.type];
  return row;
}

// Whether anyone with the link can read a sheet is asked again once the sheet's cache TTL has
// passed (10 s by default): the page stops showing real values within that time of the owner
// turning link sharing off, and at once when a read of the examples finds the sheet closed.
const linkReadable = new Map<string, { readable: Promise<boolean>; at: number }>();

/** True when Google serves the sheet to anyone with the link (checked with the API key; concurrent askers share one call). */
function isLinkReadable(sheet: SheetRecord, now = Date.now()): Promise<boolean> {
  const hit = linkReadable.get(sheet.id);
  if (hit && now - hit.at < sheet.cacheTtlSeconds * 1000) return hit.readable;
  const { sheets } = createGoogleClients(config().google, { kind: "apiKey" });
  const readable = sheets.spreadsheets.get({ spreadsheetId: sheet.id, fields: "spreadsheetId" }).then(
    () => true,
    () => false,
  );
  if (linkReadable.size > 10_000) linkReadable.clear();
  linkReadable.set(sheet.id, { readable, at: now });
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

const made = (tab: TabModel): TabExamples => ({ rows: [placeholderRow(tab, 1), placeholderRow(tab, 2)], real: false });
const madeUp = (model: SheetModel) => new Map(model.tabs.map((tab) => [tab.name, made(tab)]));

/**
 * Up to two example rows per tab: the sheet's first rows when it is link-readable and its owner
 * did not turn that off (`own`), else made up. Whether it still is gets asked before any kept
 * copy of real values is shown.
 */
export async function exampleRows(
  sheet: SheetRecord,
  model: SheetModel,
  { own = true }: { own?: boolean } = {},
): Promise<Map<string, TabExamples>> {
  const id = `${sheet.id}\u0000${model.updatedAt}`;
  if (!own || !(await isLinkReadable(sheet))) {
    examples.delete(id);
    return madeUp(model);
  }
  const hit = examples.get(id);
  if (hit && Date.now() - hit.at < EXAMPLES_TTL_MS) return hit.value;
  if (examples.size > 1000) examples.clear();
  const value = readExamples(sheet, model);
  examples.set(id, { at: Date.now(), value });
  return value;
}

async function readExamples(sheet: SheetRecord, model: SheetModel): Promise<Map<string, TabExamples>> {
  const out = new Map<string, TabExamples>();
  const versions = await getLimitStore()
    .mget<number>(model.tabs.map((tab) => dataVersionKey(sheet.id, tab.name)))
    .catch(() => []);
  await Promise.all(
    model.tabs.map(async (tab, i) => {
      try {
        const { data } = await readTab(sheet, tab, Number(versions[i] ?? 0));
        const rows = data.rows.slice(0, 2).map((r) => rowToJson(data, r));
        out.set(tab.name, rows.length ? { rows, real: true } : made(tab));
      } catch {
        out.set(tab.name, made(tab));
      }
    }),
  );
  return out;
}
