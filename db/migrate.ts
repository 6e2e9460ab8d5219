// Applies the committed migrations in db/migrations. `npm run db:migrate` runs it on its own;
// the start command runs it before the server starts.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { ConfigError, loadConfig } from "@/lib/env";
import { openDatabase, type DatabaseHandle } from "./client";

export const MIGRATIONS_FOLDER = resolve(import.meta.dirname, "migrations");

export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  const options = { migrationsFolder: MIGRATIONS_FOLDER };
  if (handle.kind === "pglite") await migratePglite(handle.db as unknown as PgliteDatabase, options);
  else await migratePostgres(handle.db as unknown as PostgresJsDatabase, options);
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
