// GET /health/ready (DECISIONS 21): out only for what this instance cannot serve without (its own
// stop, a database never reached); shared dependencies down are degraded, kept in (README.md).
import { schemaProbe } from "@/db/queries/database";
import { isDraining } from "@/lib/lifecycle/drain";
import { getLimitStore } from "@/lib/store/store";
import { recentGoogleOutcomes } from "@/lib/google/outcomes";
import { perProcess } from "@/lib/per-process";
import { timed } from "./checks";

export interface Readiness {
  ready: boolean;
  status: "ready" | "degraded" | "not_ready";
  /** What is degraded or down, in words (empty when all is well). */
  reasons: string[];
  checks: {
    database: "ok" | "down" | "no_schema";
    limit_store: "ok" | "down";
    sheets_backend: "ok" | "degraded";
    draining: boolean;
  };
}

/** Databases that have answered this process with their schema in place. */
const answered = perProcess("health:databases-answered", () => new WeakSet<object>());

/** Postgres' "undefined_table": the schema the service reads is not there. */
const noSchema = (err: unknown) =>
  [err, (err as { cause?: unknown })?.cause].some((e) => (e as { code?: string } | undefined)?.code === "42P01");

async function probeDatabase(): Promise<{ state: Readiness["checks"]["database"]; detail: string; seen: boolean }> {
  let handle: object, probe: () => Promise<void>;
  try {
    ({ database: handle, probe } = schemaProbe());
  } catch (err) {
    return { state: "down", detail: (err as Error).message, seen: false };
  }
  let missing = false;
  const result = await timed("database", async () => {
    try {
      await probe();
    } catch (err) {
      missing = noSchema(err);
      throw err;
    }
  });
  if (result.status === "ok") answered.add(handle);
  return { state: missing ? "no_schema" : result.status, detail: result.detail, seen: answered.has(handle) };
}

export async function checkReadiness(): Promise<Readiness> {
  const draining = isDraining();
  const [database, store] = await Promise.all([probeDatabase(), timed("limit store", () => getLimitStore().ping())]);
  const google = recentGoogleOutcomes().degraded ? "degraded" : "ok";
  const reasons: string[] = [];
  if (draining) reasons.push("this instance is stopping");
  if (database.state === "no_schema") reasons.push("the database has no schema: run `npm run db:migrate`");
  else if (database.state === "down" && !database.seen)
    reasons.push(`database not reached since this instance started (${database.detail})`);
  else if (database.state === "down")
    reasons.push(
      `database down (${database.detail}): cached reads and writes go on, requests that need the database answer 503`,
    );
  if (store.status === "down")
    reasons.push(`limit store down (${store.detail}): reads are served uncounted, writes answer 503`);
  if (google === "degraded")
    reasons.push(
      "Google Sheets is refusing or failing most recent calls: reads are served from cache, writes may fail",
    );
  const ready = !draining && database.state !== "no_schema" && (database.state === "ok" || database.seen);
  return {
    ready,
    status: !ready ? "not_ready" : reasons.length ? "degraded" : "ready",
    reasons,
    checks: { database: database.state, limit_store: store.status, sheets_backend: google, draining },
  };
}
