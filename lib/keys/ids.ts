// Prefixed ids from one place: newId("key") gives `key_...`.
import { randomBytes } from "node:crypto";

const PREFIXES = { key: "key", user: "usr", grant: "grt", claim: "clm" } as const;

export function newId(kind: keyof typeof PREFIXES): string {
  return `${PREFIXES[kind]}_${randomBytes(12).toString("base64url")}`;
}
