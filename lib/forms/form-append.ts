// The one way a form submission reaches the sheet: the create path every POST takes, so
// concurrent submissions of a tab go to Google together in its write batches.
import type { TabModel } from "@/lib/sheets/values/tab-model";
import type { RowInput } from "@/lib/sheets/write/row-input";
import { createRows } from "@/lib/sheets/write/create-rows";
import type { WriteSheet } from "@/lib/sheets/write/write-request";

export async function appendFormRow(sheet: WriteSheet, tab: TabModel, row: RowInput): Promise<void> {
  await createRows({ sheet, tab, body: row });
}
