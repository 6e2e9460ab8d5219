// API key values: `shk_` (secret), `shp_` (publishable: reads from web pages) or `shf_` (form:
// appends rows of one tab from a plain HTML form) + 32 base62 characters (190 bits) + a 6-character
// CRC32 checksum, so secret scanners can recognise a key and tell a secret key from a public one.
// Only the SHA-256 of a key and its first characters are ever stored.
import { createHash, randomInt } from "node:crypto";

export const KEY_KINDS = ["secret", "publishable", "form"] as const;
export type KeyKind = (typeof KEY_KINDS)[number];
export const KEY_PREFIXES: Record<KeyKind, string> = { secret: "shk_", publishable: "shp_", form: "shf_" };
/** Every prefix has this length. */
const PREFIX_LENGTH = 4;
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
/** What a key may look like; anything else is refused before any lookup. */
export const KEY_FORMAT = /^sh[kpf]_[0-9A-Za-z]{20,64}$/;

function crc32(text: string): number {
  let crc = ~0;
  for (const byte of Buffer.from(text, "utf8")) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function base62(n: number, width: number): string {
  let out = "";
  for (let i = 0; i < width; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export function generateApiKey(kind: KeyKind = "secret"): string {
  let body = "";
  for (let i = 0; i < BODY_LENGTH; i++) body += ALPHABET[randomInt(62)];
  return `${KEY_PREFIXES[kind]}${body}${base62(crc32(body), CHECKSUM_LENGTH)}`;
}

/** True when the key carries a valid checksum (generated keys always do). */
export function hasValidChecksum(key: string): boolean {
  if (!KEY_FORMAT.test(key) || key.length !== PREFIX_LENGTH + BODY_LENGTH + CHECKSUM_LENGTH) return false;
  const body = key.slice(PREFIX_LENGTH, PREFIX_LENGTH + BODY_LENGTH);
  return key.endsWith(base62(crc32(body), CHECKSUM_LENGTH));
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** The part shown in the dashboard: the prefix and four characters. */
export function displayPrefix(key: string): string {
  return key.slice(0, PREFIX_LENGTH + 4);
}
