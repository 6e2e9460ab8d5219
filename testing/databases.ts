// Fresh, migrated databases for integration tests: an in-memory PGlite, or a new database on the
// real Postgres that is dropped again when the test closes it.
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { openDatabase, type DatabaseHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrator";

export async function freshPglite(): Promise<DatabaseHandle> {
  const handle = openDatabase({ kind: "pglite", dir: "memory://" });
  await migrateDatabase(handle);
  return handle;
}

export async function freshPostgres(adminUrl: string): Promise<DatabaseHandle> {
  const name = `sheetapi_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = openDatabase({ kind: "postgres", url: url.toString() });
  await migrateDatabase(handle);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
