// A key created by a redirecting flow (private registration) is shown once on the page the flow
// lands on: it travels in a short-lived, httpOnly cookie that the page deletes when shown.
import { flashCookie, readFlash } from "./dashboard-flash";

export const NEW_KEY_COOKIE = "sheetapi_new_key";

export function newKeyCookie(sheetId: string, value: string): string {
  return flashCookie(NEW_KEY_COOKIE, { sheetId, value }, 120);
}

export function readNewKey(raw: string | undefined, sheetId: string): string | undefined {
  const parsed = readFlash(raw);
  return parsed?.sheetId === sheetId && typeof parsed.value === "string" ? parsed.value : undefined;
}
