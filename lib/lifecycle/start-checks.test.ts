// The server's check at start: missing production settings, a Postgres that does not answer
// within the wait and a refused limit-store token stop it (exit 1, one line); a store that does
// not answer is logged and the server goes on.
import { afterEach, describe, expect, it, vi } from "vitest";
import { log, setLogTarget } from "@/lib/log";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const lines: { level: string; msg: string }[] = [];
afterEach(async () => {
  const { closeDatabase } = await import("@/db/client");
  await closeDatabase();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  setLogTarget(undefined);
  log.level = "silent";
  lines.length = 0;
});

async function check(env: Record<string, string>) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  const envModule = await import("@/lib/env");
  vi.spyOn(envModule, "config").mockImplementation(() => envModule.loadConfig());
  log.level = "info";
  setLogTarget({ write: (line: string) => lines.push(JSON.parse(line) as { level: string; msg: string }) });
  const { checkAtStart } = await import("./start-checks");
  const exits: number[] = [];
  await checkAtStart((code) => exits.push(code));
  return exits;
}

/** A stand-in that answers every call 401, as Upstash does for a wrong token. */
async function refusingStore(): Promise<{ url: string; close: () => void }> {
  const server = createServer((_, res) =>
    res.writeHead(401, { "content-type": "application/json" }).end('{"error":"Unauthorized"}'),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

describe("the server's check at start", () => {
  it("stops on missing production settings, naming them", async () => {
    expect(await check({ NODE_ENV: "production", ALLOW_EMBEDDED: "", DATABASE_URL: "" })).toEqual([1]);
    expect(lines[0]).toMatchObject({ level: "fatal" });
    expect(lines[0]!.msg).toMatch(
      /^Production needs these settings: APP_URL, DATABASE_URL, .*docs\/operations\.md, Deploy/,
    );
  });

  it("stops, in one line, when the database does not answer within the wait", async () => {
    const started = Date.now();
    expect(
      await check({
        NODE_ENV: "test",
        DATABASE_URL: "postgres://postgres:secret@127.0.0.1:1/none",
        DATABASE_START_WAIT_MS: "2000",
      }),
    ).toEqual([1]);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: "fatal",
      msg: "Cannot reach the database at postgres://postgres:***@127.0.0.1:1/none: connection refused. Gave up after 2 s.",
    });
  });

  it("stops when the limit store refuses the token, and only warns when it does not answer", async () => {
    const store = await refusingStore();
    // The embedded database, whatever the environment's DATABASE_URL says: the store is checked.
    const base = {
      NODE_ENV: "test",
      DATA_DIR: "/tmp/sheetapi-start-checks",
      DATABASE_URL: "",
      UPSTASH_REDIS_REST_TOKEN: "wrong",
    };
    expect(await check({ ...base, UPSTASH_REDIS_REST_URL: store.url })).toEqual([1]);
    expect(lines.at(-1)!.msg).toContain("refused the token (HTTP 401)");
    store.close();
    lines.length = 0;
    expect(await check({ ...base, UPSTASH_REDIS_REST_URL: store.url })).toEqual([]);
    expect(lines.at(-1)).toMatchObject({ level: "warn" });
    expect(lines.at(-1)!.msg).toMatch(/^Cannot reach the limit store .* Starting anyway/);
  });
});
