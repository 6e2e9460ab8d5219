// What went wrong in a redirecting flow (the private registration's grant) is shown once on the
// dashboard it lands on. The message travels sealed in a short-lived, httpOnly cookie
// (dashboard-flash.ts) and the URL carries only a random id that must match it: a link with a
// message of its own in the URL shows nothing, so nobody can put their text in the dashboard's alert.
import { randomBytes } from "node:crypto";
import { flashCookie, readFlash, type CookieSealing } from "./dashboard-flash";

export const ERROR_FLASH_COOKIE = "sheetapi_flash_error";
// Sealed and base64url-encoded, 700 characters of any script stay under browsers' 4 KB per cookie.
const MAX_MESSAGE = 700;

/** The cookie to set and the dashboard address that shows `message`. */
export function errorFlash(message: string, sealing?: CookieSealing): { cookie: string; location: string } {
  const id = randomBytes(9).toString("base64url");
  return {
    cookie: flashCookie(ERROR_FLASH_COOKIE, { id, message: message.slice(0, MAX_MESSAGE) }, 300, sealing),
    location: `/dashboard?error=${id}`,
  };
}

/** The message the cookie holds for the id in the URL; undefined for any other id. */
export function readErrorFlash(raw: string | undefined, id: string | undefined, key?: Buffer): string | undefined {
  if (!id) return undefined;
  const parsed = readFlash(ERROR_FLASH_COOKIE, raw, key);
  return parsed?.id === id && typeof parsed.message === "string" ? parsed.message : undefined;
}
