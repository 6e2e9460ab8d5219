// One database client for the whole service: postgres.js when DATABASE_URL is set, PGlite (an
// embedded Postgres) under DATA_DIR otherwise. Both speak the same SQL through Drizzle.
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { DATABASE_GATE_VAR } from "./gate";
import * as schema from "./schema";
import { databaseTarget, type DatabaseTarget } from "./settings";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /** The Postgres address, for components that open their own connections (the webhook queue). */
  url?: string;
  /**
   * Names this database among others sharing one limit store (staging beside production, test
   * runs side by side), for what the store keeps on the database's behalf (the usage ledger, the
   * key and sheet records): read from the database itself (databaseScope), once.
   */
  scope(): Promise<string>;
  /** What versions before the database's own id named it by: a digest of its address, for ledgers they left. */
  addressScope?: string;
  close(): Promise<void>;
}

/** Opens a database; `dir` "memory://" gives a throwaway PGlite for tests. */
export function openDatabase(target: DatabaseTarget): DatabaseHandle {
  if (target.kind === "postgres") {
    const client = postgres(target.url, {
      max: 10,
      connect_timeout: 5,
      prepare: target.prepare ?? true,
      onnotice: () => {},
    });
    const db = drizzlePostgres(client, { schema });
    return {
      db,
      kind: "postgres",
      url: target.url,
      scope: databaseScope(db),
      addressScope: scopeOf(target.url),
      close: () => client.end({ timeout: 5 }),
    };
  }
  if (!target.dir.startsWith("memory://")) mkdirSync(target.dir, { recursive: true });
  const gate = process.env[DATABASE_GATE_VAR];
  const client = gate ? gatedPglite(target.dir, gate) : new PGlite(target.dir);
  const db = drizzlePglite(client, { schema });
  // A throwaway database is alone by nature (and its clones must not share its name).
  if (target.dir.startsWith("memory://")) {
    const scope = randomUUID();
    return { db, kind: "pglite", scope: () => Promise.resolve(scope), close: () => client.close() };
  }
  return {
    db,
    kind: "pglite",
    scope: databaseScope(db),
    addressScope: scopeOf(target.dir),
    close: () => client.close(),
  };
}

/**
 * The database's own name, the same for every instance whatever address reaches it: its id
 * (drawn on first use, kept in database_identity) with its name, so a copy made as another
 * database of the same server differs. Read once; a failed read is tried again on the next call.
 */
function databaseScope(db: Database): () => Promise<string> {
  let found: Promise<string> | undefined;
  const read = async () => {
    await db.insert(schema.databaseIdentity).values({ id: randomUUID() }).onConflictDoNothing();
    const [row] = rowsOf<{ id: string; name: string }>(
      await db.execute(sql`select id, current_database() as name from database_identity`),
    );
    if (!row) throw new Error("database_identity has no row");
    return createHash("sha256").update(`${row.id}\t${row.name}`).digest("hex").slice(0, 16);
  };
  return () =>
    (found ??= read().catch((err: unknown) => {
      found = undefined;
      throw err;
    }));
}

/** A short digest of where the database is (the password left out: a rotated one is the same database). */
const scopeOf = (where: string) =>
  createHash("sha256")
    .update(where.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1@"))
    .digest("hex")
    .slice(0, 16);

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function gateOpens(gate: string): Promise<void> {
  for (;;) {
    let pid: number;
    try {
      pid = Number(readFileSync(gate, "utf8"));
    } catch {
      return;
    }
    if (!pid || !running(pid)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** PGlite opened on its first query, once the gate is open (what drizzle and pg-boss call: query, exec, transaction). */
function gatedPglite(dir: string, gate: string): PGlite {
  let opened: Promise<PGlite> | undefined;
  const open = () => (opened ??= gateOpens(gate).then(() => new PGlite(dir)));
  const client = {
    query: async (...args: Parameters<PGlite["query"]>) => (await open()).query(...args),
    exec: async (...args: Parameters<PGlite["exec"]>) => (await open()).exec(...args),
    transaction: async (...args: Parameters<PGlite["transaction"]>) => (await open()).transaction(...args),
    close: async () => {
      if (opened) await (await opened).close();
    },
  };
  return client as unknown as PGlite;
}

// One per process: two PGlite instances on one directory would corrupt it. Kept on globalThis, as
// lib/per-process.ts keeps the service's other such state: Next.js bundles route handlers, pages
// and server actions apart, each with its own copy of this module.
const current = ((
  globalThis as typeof globalThis & { __sheetapiDatabase?: { handle?: DatabaseHandle } }
).__sheetapiDatabase ??= {});

/** The process's database, opened on first use where the environment says (db/settings.ts). */
export function getDb(): Database {
  current.handle ??= openDatabase(databaseTarget());
  return current.handle.db;
}

/** The process's database with its kind (and address, on Postgres). */
export function getDatabaseHandle(): DatabaseHandle {
  getDb();
  return current.handle!;
}

/** Closes the process's database if it was opened (a stopping server). */
export async function closeDatabase(): Promise<void> {
  const handle = current.handle;
  current.handle = undefined;
  await handle?.close();
}

/** Makes `handle` the process's database (tests, the start command's seeding). */
export function setDatabase(handle: DatabaseHandle): void {
  current.handle = handle;
}

/** The rows of a raw `execute()` result on either driver (postgres-js gives an array, PGlite `{ rows }`). */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}
