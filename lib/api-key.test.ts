import { describe, expect, it } from "vitest";
import { displayPrefix, generateApiKey, hashApiKey, hasValidChecksum, KEY_FORMAT } from "./api-key";

describe("API key values", () => {
  it("are prefixed, high-entropy, unique and checksummed", () => {
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    expect(keys.size).toBe(1000);
    for (const key of keys) {
      expect(key).toMatch(/^shk_[0-9A-Za-z]{38}$/);
      expect(KEY_FORMAT.test(key)).toBe(true);
      expect(hasValidChecksum(key)).toBe(true);
    }
  });

  it("tells publishable keys apart by their prefix, with the same checksum scheme", () => {
    const key = generateApiKey("publishable");
    expect(key).toMatch(/^shp_[0-9A-Za-z]{38}$/);
    expect(KEY_FORMAT.test(key)).toBe(true);
    expect(hasValidChecksum(key)).toBe(true);
    expect(displayPrefix(key)).toBe(key.slice(0, 8));
    expect(KEY_FORMAT.test(`shx_${key.slice(4)}`)).toBe(false);
  });

  it("tells form keys apart by their prefix, with the same checksum scheme", () => {
    const key = generateApiKey("form");
    expect(key).toMatch(/^shf_[0-9A-Za-z]{38}$/);
    expect(KEY_FORMAT.test(key)).toBe(true);
    expect(hasValidChecksum(key)).toBe(true);
  });

  it("detects a changed character through the checksum", () => {
    const key = generateApiKey();
    const tampered = key.slice(0, 10) + (key[10] === "a" ? "b" : "a") + key.slice(11);
    expect(hasValidChecksum(tampered)).toBe(false);
  });

  it("hashes with SHA-256 and shows only a short prefix", () => {
    expect(hashApiKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(displayPrefix("shk_abcdefgh")).toBe("shk_abcd");
  });
});
