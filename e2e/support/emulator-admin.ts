// Sets up spreadsheets in emulators/google for a test, so tests never depend on each other.
import { E2E } from "./env";

export async function createSpreadsheet(title: string, rows: (string | number | boolean | null)[][] = [["id", "name"], [1, "first"]]): Promise<string> {
  const res = await fetch(`${E2E.googleUrl}/__admin/spreadsheets`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      title,
      members: { "sheetapi-local@sheetapi-local.iam.gserviceaccount.com": "writer" },
      tabs: [{ title: "Items", rows }],
    }),
  });
  return String(((await res.json()) as { spreadsheetId: string }).spreadsheetId);
}
