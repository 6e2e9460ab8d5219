// What the docs page and the OpenAPI document of a sheet are built from: the live tab model, the
// owner's plan, example rows and the service's address. Both read this, so they never disagree.
import { getSheet } from "@/db/queries/sheets";
import { getUserById } from "@/db/queries/users";
import { config } from "@/lib/env";
import { effectivePlan } from "@/lib/limits/limiter";
import { isPlanId, type Plan, type PlanId } from "@/lib/plans";
import { sheetLocaleOf, typedValue } from "@/lib/sheets/values/cell-values";
import { currentAccess } from "@/lib/sheets/access/access-check";
import { requireRegistrantCanOpen } from "@/lib/sheets/access/access-lapse";
import { getSheetModel } from "@/lib/sheets/read/schema";
import { toSheetRecord, type SheetRecord } from "@/lib/sheets/sheet-record";
import type { SheetModel, TabModel } from "@/lib/sheets/values/tab-model";
import { exampleRows, type TabExamples } from "./samples";

export interface SheetDocs {
  sheet: SheetRecord;
  model: SheetModel;
  plan: Plan & { id: PlanId };
  baseUrl: string;
  examples: Map<string, TabExamples>;
}

/**
 * Null when no such sheet is registered; 403 (`registrant_lost_access`) when the account that
 * registered it can no longer open it in Google: its columns and rows are no longer shown.
 */
export async function loadSheetDocs(sheetId: string): Promise<SheetDocs | null> {
  const row = await getSheet({ id: sheetId });
  if (!row) return null;
  const sheet = await currentAccess(toSheetRecord(row));
  requireRegistrantCanOpen(sheet);
  const [model, owner] = await Promise.all([getSheetModel(sheet), getUserById({ id: row.userId })]);
  const planId: PlanId = owner && isPlanId(owner.plan) ? owner.plan : "free_trial";
  return {
    sheet,
    model,
    plan: { ...effectivePlan(planId), id: planId },
    baseUrl: config().appUrl,
    examples: await exampleRows(sheet, model, { own: row.docsExamples }),
  };
}

/** How the sheet's writes enter strings: its owner's choice, the same for every write of the sheet. */
export const enteredAs = (sheet: Pick<SheetRecord, "userEnteredWrites">) =>
  sheet.userEnteredWrites
    ? 'This sheet\'s owner has strings entered as if typed in Google Sheets: "42" is stored as a number, "2024-01-15" as a date, "TRUE" as a boolean and "=B2*2" as a formula; rows come back as the sheet then shows them. Numbers, booleans and null are written as JSON gives them.'
    : 'Strings are stored as text exactly as sent ("=B2*2" stays text, never a formula); numbers, booleans and null as JSON gives them.';

/** A tab's path segment, URL-encoded (tab names may hold spaces and unicode). */
export const tabPath = (docs: Pick<SheetDocs, "sheet">, tab: TabModel) =>
  `/api/v1/${docs.sheet.id}/${encodeURIComponent(tab.name)}`;

/** The example row's id: the `id` column, or the row number for tabs without one. */
export const exampleId = (docs: SheetDocs, tab: TabModel) =>
  String(docs.examples.get(tab.name)?.rows[0]?.id ?? (tab.hasIdColumn ? "1" : "2"));

/** An example value as a client should send it: numbers and booleans typed ("$24.50" -> 24.5), so the sheet stores a number. */
function asInput(tab: TabModel, name: string, value: unknown): unknown {
  const column = tab.columns.find((c) => c.name === name);
  return column && typeof value === "string" && value !== "" ? typedValue(value, column, sheetLocaleOf(tab)) : value;
}

/** The column the write examples find rows by: the first text column other than `id`. */
export const exampleKeyColumn = (tab: TabModel) => tab.columns.find((c) => c.name !== "id" && c.type === "string");

/**
 * A body for creating a row: the example's values, without `id` (assigned by the service), its
 * key column marked "(new)": the examples after it find rows by that value (PATCH and DELETE by
 * filter, upsert), so run in order they act on the row this one made, never on the sheet's own.
 */
export function exampleCreateBody(docs: SheetDocs, tab: TabModel): Record<string, unknown> {
  const firstText = exampleKeyColumn(tab);
  const rest = Object.fromEntries(
    Object.entries(docs.examples.get(tab.name)?.rows[0] ?? {})
      .filter(([name]) => name !== "id")
      // The key column always holds a value to find the row by, even when the example's is empty.
      .map(([name, v]) => [
        name,
        name === firstText?.name ? `${typeof v === "string" && v !== "" ? v : "Example"} (new)` : asInput(tab, name, v),
      ]),
  );
  return Object.keys(rest).length
    ? rest
    : Object.fromEntries(tab.columns.filter((c) => c.name !== "id").map((c) => [c.name, ""]));
}

/** The key column's value in the created example row: what the write examples after it look for. */
export function exampleKeyValue(docs: SheetDocs, tab: TabModel): string {
  const key = exampleKeyColumn(tab);
  const value = key ? exampleCreateBody(docs, tab)[key.name] : undefined;
  return typeof value === "string" && value !== "" ? value : "value";
}

/**
 * A body for a partial update: one column that is neither `id` nor the key column, so the update
 * never renames a row into another's name (the key column only on a tab that has no other).
 */
export function exampleUpdateBody(docs: SheetDocs, tab: TabModel): Record<string, unknown> {
  const key = exampleKeyColumn(tab);
  const column =
    tab.columns.find((c) => c.name !== "id" && c.name !== key?.name) ?? tab.columns.find((c) => c.name !== "id");
  if (!column) return {};
  const value = docs.examples.get(tab.name)?.rows[1]?.[column.name];
  if (column.name === key?.name) return { [column.name]: `${exampleKeyValue(docs, tab)} (edited)` };
  return { [column.name]: asInput(tab, column.name, value ?? "new value") };
}

/** The `_distinct` example column: the tab's first column (`id` on a tab without columns). */
export const exampleColumn = (tab: TabModel) => tab.columns[0]?.name ?? "id";

/** A value as a `filter` condition reads it: `,` `|` and `\` escaped. */
const filterValue = (value: string) => value.replace(/[\\,|]/g, (ch) => `\\${ch}`);

/**
 * The `filter` a filtered PATCH (`after: false`) or DELETE (`after: true`, the row as that PATCH's
 * example left it) sends: the key column equal to the created example row's key, so the examples
 * run in order change and delete that row, never one of the sheet's own (a filter matching those
 * would delete them, and past `limit` answer 409). Without a key column that can be named in a
 * condition, `id=`: it matches no row (ids are never empty), a harmless request the API accepts.
 */
export function exampleWriteFilter(docs: SheetDocs, tab: TabModel, { after = false } = {}): string {
  const key = exampleKeyColumn(tab);
  // A name holding an operator or a separator cannot be written as a condition's column.
  if (!key || /[!=<>~,|\\]/.test(key.name)) return "id=";
  const edited = after ? exampleUpdateBody(docs, tab)[key.name] : undefined;
  return `${key.name}=${filterValue(typeof edited === "string" ? edited : exampleKeyValue(docs, tab))}`;
}

/**
 * An array PATCH item for the example row, by id: the update example's column set to the value
 * the row already holds, so a run of the examples leaves the sheet's own rows as they were.
 */
export function exampleRewriteBody(docs: SheetDocs, tab: TabModel): Record<string, unknown> {
  const update = exampleUpdateBody(docs, tab);
  const [name] = Object.keys(update);
  const own = name === undefined ? undefined : docs.examples.get(tab.name)?.rows[0]?.[name];
  return name === undefined
    ? {}
    : { id: exampleId(docs, tab), [name]: own === undefined ? update[name] : asInput(tab, name, own) };
}
