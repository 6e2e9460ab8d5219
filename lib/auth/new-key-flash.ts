// A key created by a redirecting flow (private registration) is shown once on the page the flow
// lands on: it travels sealed in a short-lived, httpOnly cookie (dashboard-flash.ts) that the page
// deletes when shown.
import { flashCookie, readFlash, type CookieSealing } from "./dashboard-flash";

export const NEW_KEY_COOKIE = "sheetapi_new_key";

export function newKeyCookie(sheetId: string, value: string, sealing?: CookieSealing): string {
  return flashCookie(NEW_KEY_COOKIE, { sheetId, value }, 120, sealing);
}

export function readNewKey(raw: string | undefined, sheetId: string, key?: Buffer): string | undefined {
  const parsed = readFlash(NEW_KEY_COOKIE, raw, key);
  return parsed?.sheetId === sheetId && typeof parsed.value === "string" ? parsed.value : undefined;
}
