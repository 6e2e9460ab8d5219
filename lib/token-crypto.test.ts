import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret } from "./token-crypto";

describe("token encryption", () => {
  const key = randomBytes(32);

  it("round-trips and never repeats a ciphertext", () => {
    const a = encryptSecret("1//refresh-token", key);
    const b = encryptSecret("1//refresh-token", key);
    expect(a).not.toBe(b);
    expect(a).not.toContain("refresh");
    expect(decryptSecret(a, key)).toBe("1//refresh-token");
  });

  it("refuses a tampered value or another key", () => {
    const stored = encryptSecret("secret", key);
    const parts = stored.split(".");
    parts[3] = Buffer.from("xxxxxx").toString("base64url");
    expect(() => decryptSecret(parts.join("."), key)).toThrow();
    expect(() => decryptSecret(stored, randomBytes(32))).toThrow();
  });
});
