// Two releases (or replicas) migrating one fresh Postgres database at the same moment: both
// succeed and every migration is applied exactly once.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { testPostgresUrl } from "@/testing/services";
import { openDatabase } from "./client";
import { MIGRATION_LOCK_KEY, migrateDatabase, MIGRATIONS_FOLDER } from "./migrator";

const adminUrl = await testPostgresUrl();
const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
  entries: unknown[];
};

describe.skipIf(!adminUrl)("db:migrate under an advisory lock (Postgres)", () => {
  const name = `sheetapi_migrate_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl ?? "postgres://unused", { max: 1, onnotice: () => {} });
  const url = new URL(adminUrl ?? "postgres://unused/x");
  url.pathname = `/${name}`;

  afterAll(async () => {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it("two concurrent runs on a fresh database both succeed and apply each migration once", async () => {
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const handles = [
      openDatabase({ kind: "postgres", url: url.toString() }),
      openDatabase({ kind: "postgres", url: url.toString() }),
    ];
    try {
      const results = await Promise.allSettled(handles.map((h) => migrateDatabase(h)));
      expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
    } finally {
      await Promise.all(handles.map((h) => h.close()));
    }
    const check = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      const applied = await check`select hash from drizzle.__drizzle_migrations`;
      expect(applied).toHaveLength(journal.entries.length);
      expect(new Set(applied.map((r) => r.hash)).size).toBe(journal.entries.length);
      // The lock is released when a run ends: a third run takes it at once.
      const [row] = await check`select pg_try_advisory_lock(${MIGRATION_LOCK_KEY}) as free`;
      expect(row?.free).toBe(true);
    } finally {
      await check.end();
    }
  });
});
