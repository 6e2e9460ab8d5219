// Applies the committed migrations in db/migrations. `npm run db:migrate` runs it on its own (the
// release step of a deployment); the start command runs it before the server starts. On Postgres
// it runs under an advisory lock: replicas or release jobs started together apply each migration
// once, the later ones waiting and then finding nothing left to do.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { ConfigError, loadConfig } from "@/lib/env";
import { limitStoreProblem } from "@/lib/limits/store-check";
import { openDatabase, type DatabaseHandle } from "./client";

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
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `Cannot reach the database at ${safeTarget}: host not found.`;
  if (code === "3D000") return `The database named in ${safeTarget} does not exist.`;
  if (code === "28P01" || code === "28000") return `The database at ${safeTarget} refused the credentials.`;
  return `Database error at ${safeTarget}: ${message.split("\n")[0]}`;
}

async function main() {
  const started = Date.now();
  const cfg = loadConfig();
  // The release step checks the limit store too: a deployment whose store settings are wrong
  // stops here, before any instance starts.
  const storeProblem = await limitStoreProblem(cfg.limitStore);
  if (storeProblem) {
    console.error(storeProblem.message);
    process.exitCode = 1;
    return;
  }
  const handle = openDatabase(cfg.database);
  const target = cfg.database.kind === "postgres" ? cfg.database.url : cfg.database.dir;
  try {
    await migrateDatabase(handle);
    console.log(`Migrations applied to ${handle.kind} in ${Date.now() - started} ms`);
  } catch (err) {
    console.error(describeDatabaseError(err, target));
    process.exitCode = 1;
  } finally {
    await handle.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((err) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
}
