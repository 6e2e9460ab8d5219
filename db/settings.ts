// Where the database is: Postgres at DATABASE_URL, or PGlite (an embedded Postgres) under
// DATA_DIR. The variables are defined and read here, so db/ needs nothing above it: lib/env.ts
// takes these same definitions into the service's configuration.
import { join, resolve } from "node:path";
import { z } from "zod";

export type DatabaseTarget = { kind: "pglite"; dir: string } | { kind: "postgres"; url: string; prepare?: boolean };

const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));
const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .optional()
  .transform((v) => v === "1" || v === "true" || v === "yes");

/** The variables that say where the database is, as the configuration's schema reads them. */
export const DATABASE_VARIABLES = {
  /** Where embedded data is kept: the embedded database, and beside it what lib/env.ts keeps there. */
  DATA_DIR: z.string().default(".data"),
  DATABASE_URL: optional.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  /** Off behind a transaction-mode pooler (PgBouncer, Neon's -pooler host, Supabase's port 6543), which cannot keep prepared statements. */
  DATABASE_PREPARED_STATEMENTS: flag.default(true),
};

const databaseSettings = z.object(DATABASE_VARIABLES);
export type DatabaseSettings = z.infer<typeof databaseSettings>;

export function databaseTargetOf(settings: DatabaseSettings): DatabaseTarget {
  if (settings.DATABASE_URL)
    return { kind: "postgres", url: settings.DATABASE_URL, prepare: settings.DATABASE_PREPARED_STATEMENTS };
  return { kind: "pglite", dir: join(resolve(settings.DATA_DIR), "pglite") };
}

/** The database `source` names (the process's environment unless given). */
export function databaseTarget(source: Record<string, string | undefined> = process.env): DatabaseTarget {
  const parsed = databaseSettings.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return databaseTargetOf(parsed.data);
}
