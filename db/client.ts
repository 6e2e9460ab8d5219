// One database client for the whole service: postgres.js when DATABASE_URL is set, PGlite (an
// embedded Postgres) under DATA_DIR otherwise. Both speak the same SQL through Drizzle.
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { AppConfig } from "@/lib/env";
import { config } from "@/lib/env";
import * as schema from "./schema";
import { perProcess } from "@/lib/per-process";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /** The Postgres address, for components that open their own connections (the webhook queue). */
  url?: string;
  close(): Promise<void>;
}

/** Opens a database; `dir` "memory://" gives a throwaway PGlite for tests. */
export function openDatabase(target: AppConfig["database"]): DatabaseHandle {
  if (target.kind === "postgres") {
    const client = postgres(target.url, { max: 10, connect_timeout: 5, onnotice: () => {} });
    return { db: drizzlePostgres(client, { schema }), kind: "postgres", url: target.url, close: () => client.end({ timeout: 5 }) };
  }
  if (!target.dir.startsWith("memory://")) mkdirSync(target.dir, { recursive: true });
  const client = new PGlite(target.dir);
  return { db: drizzlePglite(client, { schema }), kind: "pglite", close: () => client.close() };
}

// One per process: two PGlite instances on one directory would corrupt it.
const current = perProcess("database", () => ({ handle: undefined as DatabaseHandle | undefined }));

/** The process's database, opened on first use from the configuration. */
export function getDb(): Database {
  current.handle ??= openDatabase(config().database);
  return current.handle.db;
}

/** The process's database with its kind (and address, on Postgres). */
export function getDatabaseHandle(): DatabaseHandle {
  getDb();
  return current.handle!;
}

/** Makes `handle` the process's database (tests, the start command's seeding). */
export function setDatabase(handle: DatabaseHandle): void {
  current.handle = handle;
}
