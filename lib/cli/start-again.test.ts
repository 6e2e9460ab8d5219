// `npm start` again with the same configuration on the same build starts from the kept plan; a
// changed setting starts the usual way. Needs a current build (`npm start` once).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freshBuildTime } from "./build-state.mjs";
import { freePort } from "@/testing/ports";

const root = resolve(import.meta.dirname, "..", "..");
const KEY = "shk_startagain000000000000000000000";
const SHEET = "1AcmeStoreDemoSpreadsheet0000000000000000001";
const running: ChildProcess[] = [];

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ["lib/cli/start.mjs"], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DEMO_MODE: "1",
      DEMO_API_KEY: KEY,
      ...env,
    } as Record<string, string> as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  running.push(child);
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}

async function until(url: string, init: RequestInit = {}, ms = 120_000): Promise<Response> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(5000) });
      if (res.status === 200) return res;
    } catch {
      // not answering yet
    }
    if (Date.now() > end) throw new Error(`${url} did not answer 200`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  process.kill(-child.pid!, "SIGTERM");
  await exited;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map(stop));
});

const built = freshBuildTime(root, {}) !== undefined;

describe.skipIf(!built)("npm start again", () => {
  it(
    "starts the server from the kept plan and serves rows once the preparation is done",
    { timeout: 240_000 },
    async () => {
      const [port, googlePort] = [await freePort(), await freePort()];
      const env = {
        PORT: String(port),
        GOOGLE_EMULATOR_PORT: String(googlePort),
        DATA_DIR: mkdtempSync(join(tmpdir(), "sheetapi-again-")),
      };
      const rows = `http://127.0.0.1:${port}/api/v1/${SHEET}/Products?limit=1`;

      const first = start(env);
      await until(`http://127.0.0.1:${port}/health`);
      expect(first.output()).not.toContain("Starting the server as last time");
      await stop(first.child);

      const again = start(env);
      const res = await until(rows, { headers: { "X-API-Key": KEY } });
      expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(1);
      expect(again.output()).toContain("Starting the server as last time");
      await until(`http://127.0.0.1:${port}/health`);
      await stop(again.child);

      const changed = start({ ...env, RATE_LIMIT_MULTIPLIER: "2" });
      await until(`http://127.0.0.1:${port}/health`);
      expect(changed.output()).not.toContain("Starting the server as last time");
    },
  );
});
