// Sets up spreadsheets in emulators/google for a test, so tests never depend on each other.
import { E2E } from "./env";

export type Rows = (string | number | boolean | null)[][];

export async function createSpreadsheet(
  title: string,
  rows: Rows = [
    ["id", "name"],
    [1, "first"],
  ],
  moreTabs: { title: string; rows: Rows }[] = [],
): Promise<string> {
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

/** A copy of a seeded spreadsheet (same tabs, values and sharing, new id), as "Make a copy" does. */
export async function copySpreadsheet(id: string): Promise<string> {
  const res = await fetch(`${E2E.googleUrl}/__admin/spreadsheets/${id}/copy`, { method: "POST" });
  return String(((await res.json()) as { spreadsheetId: string }).spreadsheetId);
}

/** Writes cells as someone editing in the Sheets UI would. */
export async function editCells(id: string, range: string, values: Rows): Promise<void> {
  await fetch(`${E2E.googleUrl}/__admin/spreadsheets/${id}/values`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ range, values }),
  });
}

/** Sharing as the sheet's owner sets it in Google Drive: named accounts and "anyone with the link". */
export async function shareSpreadsheet(
  id: string,
  sharing: {
    members?: Record<string, "reader" | "writer" | "owner" | "none">;
    linkAccess?: "reader" | "writer" | "none";
  },
): Promise<void> {
  await fetch(`${E2E.googleUrl}/__admin/spreadsheets/${id}/access`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(sharing),
  });
}

/** A spreadsheet only `owner` can open (not shared with the service): registering it goes through their own Google grant. */
export async function createPrivateSpreadsheet(owner: string, title: string): Promise<string> {
  const res = await fetch(`${E2E.googleUrl}/__admin/spreadsheets`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      title,
      members: { [owner]: "writer" },
      tabs: [
        {
          title: "Items",
          rows: [
            ["id", "name"],
            [1, "first"],
            [2, "second"],
          ],
        },
      ],
    }),
  });
  return String(((await res.json()) as { spreadsheetId: string }).spreadsheetId);
}
