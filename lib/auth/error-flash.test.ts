import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ERROR_FLASH_COOKIE, errorFlash, readErrorFlash } from "./error-flash";

const cookieValue = (cookie: string) => cookie.slice(`${ERROR_FLASH_COOKIE}=`.length, cookie.indexOf(";"));
const sealing = { key: randomBytes(32), secure: false };

describe("error flash", () => {
  it("shows the message for the id its redirect carries", () => {
    const { cookie, location } = errorFlash("Google said no.", sealing);
    const id = new URL(location, "http://x").searchParams.get("error")!;
    expect(readErrorFlash(cookieValue(cookie), id, sealing.key)).toBe("Google said no.");
    expect(cookie).toMatch(/; Path=\/dashboard; HttpOnly; SameSite=Lax; Max-Age=300$/);
    expect(cookie).not.toContain("Google");
  });

  it("shows nothing for text or another id in the URL", () => {
    const { cookie } = errorFlash("Google said no.", sealing);
    for (const id of ["Your account is suspended. Call +1 555 0100", "", undefined])
      expect(readErrorFlash(cookieValue(cookie), id, sealing.key)).toBeUndefined();
    expect(readErrorFlash(undefined, "abc", sealing.key)).toBeUndefined();
    expect(readErrorFlash("%7Bnot json", "abc", sealing.key)).toBeUndefined();
  });

  it("fits a long message in one cookie", () => {
    const { cookie } = errorFlash("ü€".repeat(2_000), sealing);
    expect(cookie.length).toBeLessThan(4_000);
  });
});
