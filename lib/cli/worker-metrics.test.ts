// `npm run worker` as deployed apart: with WORKER_METRICS_PORT it serves GET /metrics behind
// METRICS_TOKEN (the webhook backlog read from its database), and stops on SIGTERM.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { freshPostgres } from "@/testing/databases";
import { freePort, untilAnswering } from "@/testing/ports";
import { testPostgresUrl } from "@/testing/services";

const adminUrl = await testPostgresUrl();
let db: DatabaseHandle | undefined;
afterAll(async () => db?.close());

describe.skipIf(!adminUrl)("npm run worker", () => {
  it("serves its own /metrics on WORKER_METRICS_PORT, with the web route's token rule", async () => {
    db = await freshPostgres(adminUrl!);
    const port = await freePort();
    const child = spawn(process.execPath, ["--import", "tsx", "lib/cli/worker.ts"], {
      cwd: join(import.meta.dirname, "..", ".."),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "test",
        LOG_LEVEL: "warn",
        DATA_DIR: mkdtempSync(join(tmpdir(), "sheetapi-worker-")),
        DATABASE_URL: db.url!,
        WORKER_METRICS_PORT: String(port),
        METRICS_TOKEN: "worker-test-token",
        GOOGLE_API_ROOT_URL: "http://127.0.0.1:1",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      await untilAnswering(port, 300);
      const refused = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(refused.status, stderr).toBe(401);
      const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
        headers: { authorization: "Bearer worker-test-token" },
      });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain("# TYPE sheetapi_webhook_deliveries_pending gauge");
      expect(text).toMatch(/^sheetapi_webhook_deliveries_failed 0$/m);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  }, 90_000);
});
