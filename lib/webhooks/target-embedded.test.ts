// On embedded defaults (npm start with nothing set: its server runs with NODE_ENV=production and
// ALLOW_EMBEDDED), a receiver on this machine is allowed without WEBHOOK_ALLOWED_TARGETS; the
// private network and cloud metadata stay refused, and a deployment keeps every rule
// (target.test.ts checks those under production's rules).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "@/lib/env";
import { acceptedTargetsText, checkTarget, guardedPost, TargetRefused } from "./target";

let receiver: Server;
let port: number;

beforeAll(async () => {
  vi.stubEnv("DATA_DIR", "/tmp/sheetapi-target-embedded-test");
  vi.stubEnv("NODE_ENV", "production");
  vi.stubEnv("ALLOW_EMBEDDED", "1");
  vi.stubEnv("BILLING", "off");
  vi.stubEnv("WEBHOOK_ALLOWED_TARGETS", "");
  vi.stubEnv("DATABASE_URL", undefined);
  receiver = createServer((_req, res) => res.end("received"));
  port = await new Promise<number>((resolve) =>
    receiver.listen(0, "127.0.0.1", () => resolve((receiver.address() as AddressInfo).port)),
  );
});
afterAll(() => {
  receiver.close();
  vi.unstubAllEnvs();
});

const refusal = (url: string) =>
  checkTarget(url).then(
    () => undefined,
    (e: unknown) => e,
  );

describe("webhook targets on embedded defaults", () => {
  it("are embedded defaults only without a database URL and with Google emulated", () => {
    const base = {
      DATA_DIR: "/tmp/sheetapi-target-embedded-test",
      NODE_ENV: "production",
      ALLOW_EMBEDDED: "1",
      BILLING: "off",
    };
    expect(loadConfig(base).embedded).toBe(true);
    expect(loadConfig({ ...base, DATABASE_URL: "postgres://db.internal/sheetapi" }).embedded).toBe(false);
    expect(loadConfig({ ...base, NODE_ENV: "test" }).embedded).toBe(false);
  });

  it("allow and reach a receiver on this machine, by name and by loopback address", async () => {
    for (const url of [`http://localhost:${port}/hook`, `http://127.0.0.1:${port}/hook`, "http://[::1]:4000/hook"]) {
      expect((await checkTarget(url)).href).toBe(new URL(url).href);
    }
    expect(await guardedPost(`http://localhost:${port}/hook`, {}, "{}")).toMatchObject({
      status: 200,
      body: "received",
    });
  });

  it("still refuse the private network and cloud metadata, saying this machine is allowed", async () => {
    for (const url of [
      "http://10.1.2.3/",
      "http://192.168.1.1/",
      "http://169.254.169.254/latest/meta-data/",
      "http://[fd00::1]/",
    ]) {
      const err = await refusal(url);
      expect(err, url).toBeInstanceOf(TargetRefused);
      expect((err as Error).message).toContain("Receivers on this machine (localhost, 127.0.0.1) are allowed here");
    }
  });

  it("are named on the webhooks page", () => {
    expect(acceptedTargetsText()).toBe(
      "Public http(s) addresses are accepted, and receivers on this machine (http://localhost:…, 127.0.0.1); no credentials in the URL.",
    );
  });
});
