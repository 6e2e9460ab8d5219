// The start command's refusals: each is one clear line and a non-zero exit, before any build.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..", "..");

function start(env: Record<string, string>) {
  const res = spawnSync(process.execPath, ["lib/cli/start.mjs"], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DATA_DIR: mkdtempSync(join(tmpdir(), "sheetapi-start-")),
      GOOGLE_EMULATOR_PORT: "4399",
      ...env,
    } as Record<string, string> as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: res.status, errors: res.stderr.split("\n").filter((l) => l.trim() && !l.includes("npm warn")) };
}

describe("npm start", () => {
  it("fails with one line when DATABASE_URL points at nothing", () => {
    const { code, errors } = start({ DATABASE_URL: "postgres://postgres@127.0.0.1:1/nope" });
    expect(code).toBe(1);
    expect(errors).toEqual([
      "✗ Cannot reach the database at postgres://postgres@127.0.0.1:1/nope: connection refused.",
    ]);
  });

  it("never prints the database password", () => {
    const { errors } = start({ DATABASE_URL: "postgres://app:s3cret@127.0.0.1:1/nope" });
    expect(errors).toEqual(["✗ Cannot reach the database at postgres://app:***@127.0.0.1:1/nope: connection refused."]);
  });

  it("fails with one line when DATABASE_URL is not a Postgres URL", () => {
    const { code, errors } = start({ DATABASE_URL: "mysql://root:pw@db/x" });
    expect(code).toBe(1);
    expect(errors.join(" ")).toMatch(/DATABASE_URL: must be a postgres/);
  });

  it("refuses production on embedded defaults, naming what is missing", () => {
    const { code, errors } = start({ NODE_ENV: "production" });
    expect(code).toBe(1);
    expect(errors).toHaveLength(1);
    // A shared limit store is either a Redis of one's own or Upstash: both are named.
    expect(errors[0]).toMatch(
      /Production needs these settings: APP_URL, DATABASE_URL, REDIS_URL \(or UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN\)/,
    );
  });
});
