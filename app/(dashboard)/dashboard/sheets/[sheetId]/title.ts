import type { Metadata } from "next";
import { getSheetForUser } from "@/db/queries/sheets";
import { currentUser } from "@/lib/auth/session";

/**
 * A sheet page's title names the sheet, so tabs and history tell two sheets apart. Only the
 * signed-in owner's own sheet is named; anyone else gets the page's generic title (the page
 * itself then redirects or answers 404).
 */
export async function sheetPageTitle(sheetId: string, page: string): Promise<Metadata> {
  const user = await currentUser();
  const sheet = user ? await getSheetForUser({ id: sheetId, userId: user.id }).catch(() => undefined) : undefined;
  return { title: sheet ? `${sheet.name}: ${page} · SheetAPI` : `Sheet: ${page} · SheetAPI` };
}
