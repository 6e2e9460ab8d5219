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

/** One clear line for the usual ways a database connection fails. */
export function describeDatabaseError(err: unknown, target: string): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  const message = e.cause?.message ?? e.message ?? String(err);
  const safeTarget = target.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
  if (code === "ECONNREFUSED") return `Cannot reach the database at ${safeTarget}: connection refused.`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return `Cannot reach the database at ${safeTarget}: host not found.`;
  if (code === "CONNECT_TIMEOUT")
    return `Cannot reach the database at ${safeTarget}: no answer within the connect timeout.`;
  if (code === "42P01")
    return `The database at ${safeTarget} lacks this version's tables: run the release step (npm run db:migrate) first.`;
  if (code === "3D000") return `The database named in ${safeTarget} does not exist.`;
  if (code === "28P01" || code === "28000") return `The database at ${safeTarget} refused the credentials.`;
  return `Database error at ${safeTarget}: ${message.split("\n")[0]}`;
}
