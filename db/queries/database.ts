// The process's database as a whole: the name it goes by in the shared limit store, and the
// probes /health and /health/ready run on it.
import { sql } from "drizzle-orm";
import { getDatabaseHandle, getDb } from "../client";

/** The database's own name among others sharing one limit store (db/client.ts, databaseScope). */
export const databaseScope = (): Promise<string> => getDatabaseHandle().scope();

/** Every name the store may hold this database's ledger under: its own, and the address-based one of earlier versions. */
export async function ledgerScopes(): Promise<string[]> {
  const handle = getDatabaseHandle();
  return [...new Set([await handle.scope(), ...(handle.addressScope ? [handle.addressScope] : [])])];
}

/** One round trip to the database. */
export async function pingDatabase(): Promise<void> {
  await getDb().execute(sql`select 1`);
}

/**
 * The process's database (opened on first use: throws when its settings are wrong) and a probe
 * that needs its schema in place. `database` tells one database from another across calls.
 */
export function schemaProbe(): { database: object; probe: () => Promise<void> } {
  const handle = getDatabaseHandle();
  return { database: handle, probe: async () => void (await handle.db.execute(sql`select 1 from users limit 0`)) };
}
