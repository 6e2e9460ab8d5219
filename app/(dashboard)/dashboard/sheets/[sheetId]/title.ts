import type { Metadata } from "next";
import { getSheetForUser } from "@/db/queries/sheets";
import { currentUser } from "@/lib/auth/session";

/**
 * A sheet page's title names the sheet, so tabs and history tell two sheets apart. Only the
 * signed-in owner's own sheet is named; a signed-in person without it gets "Sheet not found" (as
 * the page says), a visitor the page's generic title (the page then sends them to sign in).
 */
export async function sheetPageTitle(sheetId: string, page: string): Promise<Metadata> {
  const user = await currentUser();
  const sheet = user ? await getSheetForUser({ id: sheetId, userId: user.id }).catch(() => undefined) : undefined;
  if (user && !sheet) return { title: "Sheet not found · SheetAPI" };
  return { title: sheet ? `${sheet.name}: ${page} · SheetAPI` : `Sheet: ${page} · SheetAPI` };
}
