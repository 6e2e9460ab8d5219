// The SSRF guard on DNS answers: a name whose answer is an IPv6 form carrying a private IPv4
// address, or a special-purpose IPv6 address, is refused when saved and at connection time.
import type { LookupAddress } from "node:dns";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { checkTarget, guardedPost, localTargetsHint, TargetRefused } from "./target";

// Names under .test answer what this table says; anything else is not found.
const ANSWERS: Record<string, LookupAddress[]> = {
  "compatible.test": [{ address: "::7f00:1", family: 6 }],
  "nat64.test": [{ address: "64:ff9b::a9fe:a9fe", family: 6 }],
  "nat64-local.test": [{ address: "64:ff9b:1::808:808", family: 6 }],
  "sixtofour.test": [{ address: "2002:0A00:0001::1", family: 6 }],
  "teredo.test": [{ address: "2001:0:4136:e378:8000:63bf:3fff:fdd2", family: 6 }],
  "srv6.test": [{ address: "5f00::1", family: 6 }],
  "zoned.test": [{ address: "fe80::1%eth0", family: 6 }],
  // One refused answer among public ones refuses the name: the connection could pick any.
  "mixed.test": [
    { address: "93.184.216.34", family: 4 },
    { address: "2002:c0a8:101::1", family: 6 },
  ],
};

vi.mock("node:dns", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:dns")>();
  const lookup = (
    host: string,
    _options: unknown,
    callback: (err: Error | null, addresses: LookupAddress[]) => void,
  ) => {
    const answer = ANSWERS[host];
    if (answer) return setImmediate(() => callback(null, answer));
    setImmediate(() => callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" }), []));
  };
  return { ...actual, lookup, default: { ...actual, lookup } };
});

beforeAll(() => {
  vi.stubEnv("DATA_DIR", "/tmp/sheetapi-target-test");
  vi.stubEnv("WEBHOOK_ALLOWED_TARGETS", "");
  vi.stubEnv("WEBHOOK_TIMEOUT_MS", "2000");
});
afterAll(() => vi.unstubAllEnvs());

describe("webhook targets by name", () => {
  it("refuses a name whose answer is refused, when the endpoint is saved, without saying what it resolves to", async () => {
    // Naming the address would answer, for anyone, what the service's internal names point to.
    for (const [host, answer] of [...Object.entries(ANSWERS), ["unknown.test", []] as const]) {
      const err = await checkTarget(`https://${host}/hook`).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, host).toBeInstanceOf(TargetRefused);
      const message = (err as Error).message;
      expect(message, host).toBe(
        `${host} does not resolve to a public address (a loopback, link-local, private or reserved address is refused).${localTargetsHint()}`,
      );
      for (const { address } of answer) expect(message, host).not.toContain(address.split("%")[0]);
      expect(message, host).not.toMatch(/carrying/);
    }
  });

  it("refuses the same answers at connection time, before anything is sent", async () => {
    for (const host of Object.keys(ANSWERS)) {
      await expect(guardedPost(`http://${host}/hook`, {}, "{}"), host).rejects.toThrow(
        `${host} does not resolve to a public address (`,
      );
    }
  });
});
