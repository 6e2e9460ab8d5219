// What every row write is asked: one request object (the sheet, the tab, what the client sent,
// and what its Idempotency-Key knows of an earlier attempt), so no verb takes positional
// arguments and a new caller (a route, a form) fills in the same fields.
import { ApiError } from "@/lib/errors";
import { requireRegistrantCanEdit } from "@/lib/sheets/access/access-lapse";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import type { TabModel } from "@/lib/sheets/values/tab-model";
import { outcomeOf } from "./write-guard";

export type WriteSheet = Pick<
  SheetRecord,
  "id" | "access" | "refreshTokenCiphertext" | "cacheTtlSeconds" | "writable"
> &
  Partial<Pick<SheetRecord, "userEnteredWrites" | "accessState">>;

/** The answer of a write whose earlier attempt (same Idempotency-Key) landed after all: nothing was written again. */
export type EarlierLanded = "earlier-landed";

/** What a write is told of the request's Idempotency-Key and of the earlier attempt with it. */
export interface ReplayOptions {
  idempotencyKey?: string;
  /** The earlier attempt's write, whose outcome was unknown: settled before anything is written. */
  earlierWrite?: number;
  /** The answer the earlier attempt would have had (a create reuses its row ids). */
  earlierAnswer?: unknown;
}

export interface WriteRequest extends ReplayOptions {
  sheet: WriteSheet;
  tab: TabModel;
  /** The body as parsed JSON (creates, updates, upserts). */
  body?: unknown;
  /** The query: a filter, `key`, `upsert`, `limit`, `dry_run` (writes by value). */
  params?: URLSearchParams;
  /** The row a by-id update or delete names. */
  rowId?: string;
  /** The client's If-Match: the ETags of the rows as it read them. */
  ifMatch?: string | null;
}

export type CreateRequest = WriteRequest & { body: unknown };
export type RowRequest = WriteRequest & { rowId: string };
export type ByValueRequest = WriteRequest & { params: URLSearchParams };

export function requireWritable(sheet: WriteSheet): void {
  requireRegistrantCanEdit(sheet);
  if (sheet.writable) return;
  throw new ApiError(
    "forbidden",
    "This sheet is read-only for the service. To allow writes, share it with the service's Google account as Editor and register it again in the dashboard, or register it through the private flow: signed in to the dashboard, open /auth/google?sheet_url=<the sheet's address>, and SheetAPI writes with your own Google access (if you can edit the sheet).",
  );
}

/** True when the earlier attempt's write landed: then this one writes nothing and answers EarlierLanded. */
export async function earlierLanded(request: WriteRequest): Promise<boolean> {
  return request.earlierWrite !== undefined && (await outcomeOf(request.sheet.id, request.earlierWrite)) === true;
}

/** The read a 504's message tells the client to check with. */
export const rowApi = (sheet: WriteSheet, tab: string, id: string) =>
  `GET /api/v1/${sheet.id}/${encodeURIComponent(tab)}/${encodeURIComponent(id)}`;
