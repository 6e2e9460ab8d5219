// Sets up spreadsheets in emulators/google for a test, so tests never depend on each other.
import { E2E } from "./env";

type Rows = (string | number | boolean | null)[][];

export async function createSpreadsheet(title: string, rows: Rows = [["id", "name"], [1, "first"]], moreTabs: { title: string; rows: Rows }[] = []): Promise<string> {
  const res = await fetch(`${E2E.googleUrl}/__admin/spreadsheets`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      title,
      members: { "sheetapi-local@sheetapi-local.iam.gserviceaccount.com": "writer" },
      tabs: [{ title: "Items", rows }, ...moreTabs],
    }),
  });
  return String(((await res.json()) as { spreadsheetId: string }).spreadsheetId);
}
