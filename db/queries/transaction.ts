import { getDb, type Database } from "../client";

/** The database, or a transaction of it: what a query given `db` runs on. */
export type Executor = Database;

/** Runs `work` in one transaction: the queries it passes `tx` to commit or roll back together. */
export const inTransaction = <T>(work: (tx: Executor) => Promise<T>): Promise<T> => getDb().transaction(work);
