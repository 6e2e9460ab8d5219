// The worker's refusals at start: a database it cannot use is one line and exit 1, never a stack
// trace, whether the server is not there or the database named does not exist.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..", "..");

function worker(databaseUrl: string) {
  const res = spawnSync(process.execPath, ["--import", "tsx", "lib/cli/worker.ts"], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "test",
      DATABASE_URL: databaseUrl,
      DATABASE_START_WAIT_MS: "1500",
      LOG_LEVEL: "silent",
    },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: res.status, errors: res.stderr.split("\n").filter((l) => l.trim()) };
}

describe("the worker at start", () => {
  it("stops with one line when the database server does not answer", () => {
    expect(worker("postgres://app:s3cret@127.0.0.1:1/none")).toEqual({
      code: 1,
      errors: [
        "✗ Cannot reach the database at postgres://app:***@127.0.0.1:1/none: connection refused. Gave up after 2 s.",
      ],
    });
  });

  it("stops with one line when the database named does not exist", () => {
    expect(worker("postgres://postgres@127.0.0.1:5432/sheetapi_no_such_database")).toEqual({
      code: 1,
      errors: ["✗ The database named in postgres://postgres@127.0.0.1:5432/sheetapi_no_such_database does not exist."],
    });
  });
});
