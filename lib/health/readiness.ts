// GET /health/ready: whether this instance should get traffic (DECISIONS 21). Only what this
// instance cannot serve without takes it out: the database, or its own stop under way. The limit
// store or Google being down or refusing is reported but keeps it in: every instance shares them,
// reads still work (DECISIONS 18a), and taking all of them out would turn an outage of one
// dependency into an outage of the whole service. Makes no call to Google.
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { isDraining } from "@/lib/lifecycle/drain";
import { getLimitStore } from "@/lib/store/store";
import { recentGoogleOutcomes } from "@/lib/google/outcomes";
import { timed } from "./checks";

export interface Readiness {
  ready: boolean;
  status: "ready" | "degraded" | "not_ready";
  /** What is degraded or down, in words (empty when all is well). */
  reasons: string[];
  checks: { database: "ok" | "down"; limit_store: "ok" | "down"; sheets_backend: "ok" | "degraded"; draining: boolean };
}

export async function checkReadiness(): Promise<Readiness> {
  const draining = isDraining();
  const [database, store] = await Promise.all([timed("database", () => getDb().execute(sql`select 1`)), timed("limit store", () => getLimitStore().ping())]);
  const google = recentGoogleOutcomes().degraded ? "degraded" : "ok";
  const reasons: string[] = [];
  if (draining) reasons.push("this instance is stopping");
  if (database.status === "down") reasons.push(`database down (${database.detail})`);
  if (store.status === "down") reasons.push(`limit store down (${store.detail}): reads are served uncounted, writes answer 503`);
  if (google === "degraded") reasons.push("Google Sheets is refusing or failing most recent calls: reads are served from cache, writes may fail");
  const ready = !draining && database.status === "ok";
  return {
    ready,
    status: !ready ? "not_ready" : reasons.length ? "degraded" : "ready",
    reasons,
    checks: { database: database.status, limit_store: store.status, sheets_backend: google, draining },
  };
}
