// Whether the database answers at start, for the processes that do not migrate it first (the
// standalone server, the worker): a wrong DATABASE_URL stops them with one line, as `npm start`
// and the release step do, instead of a server that never answers or a stack trace. A database
// still starting beside them (compose, a restart) gets a bounded while (DATABASE_START_WAIT_MS).
import { databaseScope } from "@/db/queries/database";
import { describeDatabaseError } from "@/db/database-errors";

// Worth waiting for: the server is not up (yet), or is still starting (57P03).
const PASSING = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EAI_AGAIN", "CONNECT_TIMEOUT", "57P03"]);

/** Undefined when the database answers within `waitMs`; else the one line that says why not. */
export async function databaseProblemAtStart(target: string, waitMs: number): Promise<string | undefined> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      // Reading the database's id is a real query, and the one every counted request needs first.
      await databaseScope();
      return undefined;
    } catch (err) {
      const e = err as { code?: string; cause?: { code?: string } };
      const passing = PASSING.has(String(e.code ?? e.cause?.code));
      if (!passing || Date.now() >= deadline)
        return `${describeDatabaseError(err, target)}${passing ? ` Gave up after ${Math.round(waitMs / 1000)} s.` : ""}`;
      await new Promise((r) => setTimeout(r, Math.min(1_000, deadline - Date.now())));
    }
  }
}
