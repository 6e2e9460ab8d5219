// What went wrong in a redirecting flow (the private registration's grant) is shown once on the
// dashboard it lands on. The message travels in a short-lived, httpOnly cookie and the URL carries
// only a random id that must match it: a link with a message of its own in the URL shows nothing,
// so nobody can put their text in the dashboard's alert.
import { randomBytes } from "node:crypto";

export const ERROR_FLASH_COOKIE = "sheetapi_flash_error";
const MAX_MESSAGE = 1_000;

/** The cookie to set and the dashboard address that shows `message`. */
export function errorFlash(message: string): { cookie: string; location: string } {
  const id = randomBytes(9).toString("base64url");
  const payload = encodeURIComponent(JSON.stringify({ id, message: message.slice(0, MAX_MESSAGE) }));
  return { cookie: `${ERROR_FLASH_COOKIE}=${payload}; Path=/dashboard; HttpOnly; SameSite=Lax; Max-Age=300`, location: `/dashboard?error=${id}` };
}

/** The message the cookie holds for the id in the URL; undefined for any other id. */
export function readErrorFlash(raw: string | undefined, id: string | undefined): string | undefined {
  if (!raw || !id) return undefined;
  try {
    const parsed = JSON.parse(decodeURIComponent(raw)) as { id?: unknown; message?: unknown };
    return parsed.id === id && typeof parsed.message === "string" ? parsed.message : undefined;
  } catch {
    return undefined;
  }
}
