import { describe, expect, it } from "vitest";
import { ERROR_FLASH_COOKIE, errorFlash, readErrorFlash } from "./error-flash";

const cookieValue = (cookie: string) => cookie.slice(`${ERROR_FLASH_COOKIE}=`.length, cookie.indexOf(";"));

describe("error flash", () => {
  it("shows the message for the id its redirect carries", () => {
    const { cookie, location } = errorFlash("Google said no.");
    const id = new URL(location, "http://x").searchParams.get("error")!;
    expect(readErrorFlash(cookieValue(cookie), id)).toBe("Google said no.");
    expect(cookie).toMatch(/; Path=\/dashboard; HttpOnly; SameSite=Lax; Max-Age=300$/);
  });

  it("shows nothing for text or another id in the URL", () => {
    const { cookie } = errorFlash("Google said no.");
    for (const id of ["Your account is suspended. Call +1 555 0100", "", undefined]) expect(readErrorFlash(cookieValue(cookie), id)).toBeUndefined();
    expect(readErrorFlash(undefined, "abc")).toBeUndefined();
    expect(readErrorFlash("%7Bnot json", "abc")).toBeUndefined();
  });
});
