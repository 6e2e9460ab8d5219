// What a redirecting flow hands to the dashboard page it lands on: a short-lived httpOnly cookie,
// sealed with AES-256-GCM so a new key is never readable in transit or storage (README.md).
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

export function flashCookie(
  name: string,
  payload: Record<string, unknown>,
  maxAgeSeconds: number,
  sealing: CookieSealing = configured(),
): string {
  // The cookie's name is sealed in too: one flash cannot be replayed as another.
  const sealed = encryptSecret(JSON.stringify({ ...payload, cookie: name }), sealing.key);
  return `${name}=${sealed}; ${cookieAttributes("/dashboard", maxAgeSeconds, sealing.secure)}`;
}

/** The cookie's payload; undefined when there is none or this service did not seal it as `name`. */
export function readFlash(
  name: string,
  raw: string | undefined,
  key: Buffer = configured().key,
): Record<string, unknown> | undefined {
  if (!raw) return undefined;
  try {
    const parsed: unknown = JSON.parse(decryptSecret(raw, key));
    if (typeof parsed !== "object" || parsed === null || (parsed as { cookie?: unknown }).cookie !== name)
      return undefined;
    return parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
