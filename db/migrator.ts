// Applies the committed migrations in db/migrations: the release step (lib/cli/migrate.ts) and the
// start command run it before the server starts. On Postgres it runs under an advisory lock:
// replicas or release jobs started together apply each migration once, the later ones waiting and
// then finding nothing left to do.
import { resolve } from "node:path";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { DatabaseHandle } from "./client";

export const MIGRATIONS_FOLDER = resolve(import.meta.dirname, "migrations");

/** The advisory lock's key: any fixed number no other part of the service locks on. */
export const MIGRATION_LOCK_KEY = 7_391_104_221;

export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  const options = { migrationsFolder: MIGRATIONS_FOLDER };
  if (handle.kind === "pglite") return migratePglite(handle.db as unknown as PgliteDatabase, options);
  if (!handle.url) return migratePostgres(handle.db as unknown as PostgresJsDatabase, options);
  // A session-level lock holds only on the connection that took it: one connection of its own
  // takes the lock and applies the migrations, and ending it releases the lock even if this
  // process dies half-way.
  const session = postgres(handle.url, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    await session`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await migratePostgres(drizzle(session), options);
    await session`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
  } finally {
    await session.end({ timeout: 5 });
  }
}
