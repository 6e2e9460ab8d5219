import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { flashCookie, flashKey, readFlash } from "./dashboard-flash";
import { encryptSecret } from "@/lib/token-crypto";
import { NEW_KEY_COOKIE, newKeyCookie, readNewKey } from "./new-key-flash";

const key = randomBytes(32);
const value = (cookie: string) => cookie.slice(cookie.indexOf("=") + 1, cookie.indexOf(";"));
const KEY = "shk_abcdefghijklmnopqrstuvwxyz0123456789AB";

describe("one-time dashboard cookies", () => {
  it("carry a new key sealed: the value is not in the cookie, and only this service can read it back", () => {
    const cookie = newKeyCookie("1SheetIdSheetIdSheetId00", KEY, { key, secure: false });
    expect(cookie.startsWith(`${NEW_KEY_COOKIE}=v1.`)).toBe(true);
    expect(cookie).not.toContain("shk_");
    expect(cookie).not.toContain("1SheetIdSheetIdSheetId00");
    expect(readNewKey(value(cookie), "1SheetIdSheetIdSheetId00", key)).toBe(KEY);
    expect(readNewKey(value(cookie), "1AnotherSheetAnotherSheet", key)).toBeUndefined();
    expect(readNewKey(value(cookie), "1SheetIdSheetIdSheetId00", randomBytes(32))).toBeUndefined();
  });

  it("show nothing for a planted, tampered or plain value", () => {
    const plain = encodeURIComponent(JSON.stringify({ sheetId: "s", value: KEY }));
    expect(readNewKey(plain, "s", key)).toBeUndefined();
    const sealed = value(newKeyCookie("s", KEY, { key, secure: false }));
    // The second-last character always carries six bits of ciphertext; swap it for a different one.
    const flipped = sealed.at(-2) === "A" ? "B" : "A";
    const tampered = `${sealed.slice(0, -2)}${flipped}${sealed.slice(-1)}`;
    expect(tampered).not.toBe(sealed);
    expect(readNewKey(tampered, "s", key)).toBeUndefined();
    // Sealed under ENCRYPTION_KEY itself, as refresh tokens are, and not under the key derived from it.
    const encryptionKey = randomBytes(32);
    const asToken = encryptSecret(JSON.stringify({ sheetId: "s", value: KEY, cookie: NEW_KEY_COOKIE }), encryptionKey);
    expect(readNewKey(asToken, "s", flashKey(encryptionKey))).toBeUndefined();
  });

  it("cannot be replayed under another cookie's name", () => {
    const other = flashCookie("sheetapi_flash_error", { sheetId: "s", value: KEY }, 60, { key, secure: false });
    expect(readFlash(NEW_KEY_COOKIE, value(other), key)).toBeUndefined();
  });

  it("are Secure when the app is served over https", () => {
    expect(newKeyCookie("s", KEY, { key, secure: true })).toMatch(
      /; Path=\/dashboard; HttpOnly; SameSite=Lax; Max-Age=120; Secure$/,
    );
    expect(newKeyCookie("s", KEY, { key, secure: false })).not.toContain("Secure");
  });

  it("derive their own key from ENCRYPTION_KEY", () => {
    expect(flashKey(key)).toHaveLength(32);
    expect(flashKey(key).equals(key)).toBe(false);
    expect(flashKey(key).equals(flashKey(Buffer.from(key)))).toBe(true);
  });
});
