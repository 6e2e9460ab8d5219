// What a redirecting flow hands to the dashboard page it lands on (a new key, what went wrong): a
// short-lived, httpOnly cookie scoped to /dashboard, never the URL, and `Secure` whenever the app
// is served over https (APP_URL).
//
// The payload is sealed with AES-256-GCM (token-crypto.ts, the refresh tokens' helper) under a
// key derived from ENCRYPTION_KEY for this use alone, so a new API key never sits readable in the
// browser's cookie store, a proxy's log or a stray plain-HTTP request. Sealed in the cookie rather
// than kept in a table under a random id: nothing to migrate, to sweep when never read, or to
// share between instances, and the page still deletes the cookie once it has shown it. GCM also
// proves this service wrote the payload, so no one can plant a value for the page to show.
import { hkdfSync } from "node:crypto";
import { config } from "@/lib/env";
import { decryptSecret, encryptSecret } from "@/lib/token-crypto";

export interface CookieSealing {
  key: Buffer;
  secure: boolean;
}

/** ENCRYPTION_KEY stretched for flash cookies: a cookie can never be decrypted as a stored token. */
export function flashKey(encryptionKey: Buffer): Buffer {
  return Buffer.from(hkdfSync("sha256", encryptionKey, Buffer.alloc(0), "sheetapi dashboard flash v1", 32));
}

/** Cookies are `Secure` whenever the app's own address is https. */
export const secureCookies = (): boolean => new URL(config().appUrl).protocol === "https:";

const configured = (): CookieSealing => ({ key: flashKey(config().secrets.encryptionKey), secure: secureCookies() });

/** The attributes of the service's one-time cookies. */
export function cookieAttributes(path: string, maxAgeSeconds: number, secure: boolean): string {
  return `Path=${path}; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

export function flashCookie(name: string, payload: Record<string, unknown>, maxAgeSeconds: number, sealing: CookieSealing = configured()): string {
  // The cookie's name is sealed in too: one flash cannot be replayed as another.
  const sealed = encryptSecret(JSON.stringify({ ...payload, cookie: name }), sealing.key);
  return `${name}=${sealed}; ${cookieAttributes("/dashboard", maxAgeSeconds, sealing.secure)}`;
}

/** The cookie's payload; undefined when there is none or this service did not seal it as `name`. */
export function readFlash(name: string, raw: string | undefined, key: Buffer = configured().key): Record<string, unknown> | undefined {
  if (!raw) return undefined;
  try {
    const parsed: unknown = JSON.parse(decryptSecret(raw, key));
    if (typeof parsed !== "object" || parsed === null || (parsed as { cookie?: unknown }).cookie !== name) return undefined;
    return parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
