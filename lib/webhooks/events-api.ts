// GET /api/{sheetId}/events: the sheet's recent change events, for clients that poll instead of
// receiving webhooks. It needs the Read permission (events carry row values, which Read already
// grants; Schema alone does not). The first call starts change tracking for the sheet. Paging
// is by cursor: `after` is the last `seq` seen; the answer's `meta.next_after` is the next one.
import { listChangeEvents } from "@/db/queries/change-events";
import { ApiError } from "@/lib/errors";
import { checkSingle } from "@/lib/http/query-params";
import { isTracked, startTracking } from "./changes";
import { EVENT_TYPES } from "./diff";

const NAMES = ["after", "limit", "tab", "type"] as const;
const KNOWN = new Set<string>(NAMES);

function integer(params: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = params.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new ApiError("validation_error", `${name} must be an integer from ${min} to ${max}.`);
  return Number(raw);
}

export async function listEvents(sheetId: string, params: URLSearchParams) {
  for (const name of params.keys())
    if (!KNOWN.has(name))
      throw new ApiError("validation_error", `Unknown query parameter "${name}" (allowed: after, limit, tab, type).`);
  // Each takes one value, as in the rows API: `after=1&after=2` answers 400, not one of the two.
  checkSingle(params, NAMES);
  const after = integer(params, "after", 0, 0, Number.MAX_SAFE_INTEGER);
  const limit = integer(params, "limit", 100, 1, 1000);
  const type = params.get("type");
  if (type !== null && !(EVENT_TYPES as readonly string[]).includes(type))
    throw new ApiError("validation_error", `type must be one of ${EVENT_TYPES.join(", ")}.`);
  const tab = params.get("tab");
  const tracking = await isTracked(sheetId);
  if (!tracking) await startTracking(sheetId);
  const rows = await listChangeEvents({ sheetId, after, type, tab, limit: limit + 1 });
  const page = rows.slice(0, limit);
  return {
    data: page.map((e) => ({ id: e.id, seq: e.seq, type: e.type, timestamp: e.createdAt.toISOString(), data: e.data })),
    meta: {
      after,
      limit,
      returned: page.length,
      has_more: rows.length > limit,
      next_after: page.at(-1)?.seq ?? after,
      tracking_since_now: !tracking,
    },
  };
}
