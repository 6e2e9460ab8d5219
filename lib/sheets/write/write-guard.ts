// How a row write reaches Google so that one whose answer never came can never land twice, land
// on another row, or land after a later write (DECISIONS 5, 7, 7a), by construction, not timing:
// one atomic batch with a metadata marker, fences, pending writes settled under the tab's lock.
// The mechanism step by step: README.md ("The write guard").
import { randomInt } from "node:crypto";
import type { sheets_v4 } from "@googleapis/sheets";
import { ApiError } from "@/lib/errors";
import { heldLock } from "@/lib/store/lock";
import { getLimitStore, writesPaused } from "@/lib/store/store";
import { QuotaRefusal } from "@/lib/google/quota";
import { withGoogle } from "@/lib/sheets/sheet-access";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import { invalidateTabs } from "@/lib/sheets/read/tab-cache";
import type { TabModel } from "@/lib/sheets/values/tab-model";

type Sheet = Pick<SheetRecord, "id" | "access" | "refreshTokenCiphertext">;
export type SheetsRequest = sheets_v4.Schema$Request;
type Metadata = sheets_v4.Schema$DeveloperMetadata;

export const WRITE_MARKER = "sheetapi.write";
const FENCE = "sheetapi.fence";
const VISIBILITY = "PROJECT";
const PENDING_TTL_SECONDS = 7 * 24 * 3600;
const OUTCOME_TTL_SECONDS = 24 * 3600;
const pendingKey = (sheetId: string, tab: string) => `sheetapi:pending:${sheetId}:${tab}`;
const outcomeKey = (sheetId: string, writeId: number) => `sheetapi:outcome:${sheetId}:${writeId}`;

/** A metadataId: positive, 32-bit, random (Google's own ids are too). */
export const newWriteId = () => randomInt(1, 2 ** 31 - 1);

export function markerRequest(
  writeId: number,
  kind: string,
  location: sheets_v4.Schema$DeveloperMetadataLocation,
): SheetsRequest {
  return {
    createDeveloperMetadata: {
      developerMetadata: {
        metadataId: writeId,
        metadataKey: WRITE_MARKER,
        metadataValue: kind,
        location,
        visibility: VISIBILITY,
      },
    },
  };
}

/** Removes the markers of the tab's earlier writes, all settled by the time a batch is sent. */
function clearMarkers(gid: number): SheetsRequest {
  return {
    deleteDeveloperMetadata: {
      dataFilter: {
        developerMetadataLookup: {
          metadataKey: WRITE_MARKER,
          metadataLocation: { sheetId: gid },
          locationMatchingStrategy: "INTERSECTING_LOCATION",
        },
      },
    },
  };
}

/**
 * No answer, or a failure after which Google may have applied the batch. The quota guard's own
 * refusal is not one: that call never left.
 */
const ambiguous = (err: unknown) =>
  err instanceof ApiError &&
  !(err instanceof QuotaRefusal) &&
  (err.code === "gateway_timeout" || err.code === "bad_gateway" || err.code === "service_unavailable");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `readBack`: A1 ranges whose cells, as the sheet now shows them, come back in the same answer.
 * A write's batch is never retried in place, not even after a 429: Google documents its 429 as
 * a refusal before processing, but an answer lost on the way (or a proxy's 429) cannot prove it,
 * so a write is sent again only after a fence proved it did not land. Fences are not retried in
 * place either: their own attempts, with waits between them, are the retries.
 */
async function batch(sheet: Sheet, requests: SheetsRequest[], { readBack }: { readBack?: string[] } = {}) {
  const response = readBack?.length
    ? { includeSpreadsheetInResponse: true, responseRanges: readBack, responseIncludeGridData: true }
    : {};
  return withGoogle(
    sheet,
    "spreadsheets.batchUpdate",
    (c) => c.sheets.spreadsheets.batchUpdate({ spreadsheetId: sheet.id, requestBody: { requests, ...response } }),
    false,
    { kind: "write" },
  );
}

/** Waits before a fence is sent again, and before a write a fence stopped is sent anew. */
const BACKOFF_MS = [250, 1000];

async function findMetadata(sheet: Sheet, writeId: number): Promise<Metadata | undefined> {
  const { data } = await withGoogle(sheet, "spreadsheets.developerMetadata.search", (c) =>
    c.sheets.spreadsheets.developerMetadata.search({
      spreadsheetId: sheet.id,
      requestBody: { dataFilters: [{ developerMetadataLookup: { metadataId: writeId } }] },
    }),
  );
  return data.matchedDeveloperMetadata?.[0]?.developerMetadata ?? undefined;
}

export type Settled = { landed: true; marker: Metadata } | { landed: false };

/**
 * Makes sure the write `writeId` can no longer land, and says whether it did. Undefined when
 * Google does not answer: the outcome is still unknown. Sending a fence again is always safe.
 */
async function fence(sheet: Sheet, writeId: number): Promise<Settled | undefined> {
  const request: SheetsRequest = {
    createDeveloperMetadata: {
      developerMetadata: {
        metadataId: writeId,
        metadataKey: FENCE,
        metadataValue: Math.floor(Date.now() / 1000).toString(36),
        location: { spreadsheet: true },
        visibility: VISIBILITY,
      },
    },
  };
  for (let attempt = 0; attempt <= BACKOFF_MS.length; attempt++) {
    if (attempt > 0) await sleep(BACKOFF_MS[attempt - 1]!);
    try {
      // Sent once per attempt: the attempts and their waits are the retries, so a Google that
      // keeps answering 429 costs the write and three fences, not a dozen calls of its quota.
      await batch(sheet, [request]);
      return { landed: false };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.code === "validation_error") {
        // The id is taken: by the write's marker, or by an earlier fence of ours.
        const found = await findMetadata(sheet, writeId).catch(() => undefined);
        if (!found) return undefined;
        return found.metadataKey === FENCE ? { landed: false } : { landed: true, marker: found };
      }
      if (!ambiguous(err)) throw err;
    }
  }
  return undefined;
}

const store = () => getLimitStore();

async function recordPending(sheetId: string, tab: string, writeId: number, kind: string): Promise<void> {
  const lock = heldLock();
  const value = { kind, at: Date.now() };
  let recorded = true;
  try {
    // Only while the tab's lock is still ours: a writer whose lease ran out sends nothing more.
    if (lock)
      recorded = await store().hsetIfHolder(
        lock.key,
        lock.token,
        pendingKey(sheetId, tab),
        String(writeId),
        value,
        PENDING_TTL_SECONDS,
      );
    else await store().hset(pendingKey(sheetId, tab), String(writeId), value, PENDING_TTL_SECONDS);
  } catch {
    throw writesPaused();
  }
  if (!recorded)
    throw new ApiError(
      "service_unavailable",
      `This write to "${tab}" took longer than its turn on the tab allows; nothing was written. Retry shortly.`,
      {},
      { "Retry-After": "1" },
    );
}

async function settle(sheetId: string, tab: string, writeId: number, outcome?: Settled): Promise<void> {
  // Only the outcome of a write some client was told is unknown needs keeping (Idempotency-Key retries).
  if (outcome)
    await store()
      .put(outcomeKey(sheetId, writeId), { landed: outcome.landed }, OUTCOME_TTL_SECONDS)
      .catch(() => undefined);
  await store()
    .hdel(pendingKey(sheetId, tab), String(writeId))
    .catch(() => undefined);
}

/** Whether a write a client was told is unknown landed, once settled; undefined while unknown. */
export async function outcomeOf(sheetId: string, writeId: number): Promise<boolean | undefined> {
  const [found] = await store().mget<{ landed: boolean }>([outcomeKey(sheetId, writeId)]);
  return found?.landed;
}

/** Whether the tab has writes whose outcome is not known yet (false when the store cannot say). */
export async function hasPendingWrites(sheetId: string, tab: string): Promise<boolean> {
  const pending = await store()
    .hgetall(pendingKey(sheetId, tab))
    .catch(() => ({}));
  return Object.keys(pending).length > 0;
}

/** Settles every write of the tab still pending (call under the tab's lock, before reading it). */
export async function settlePending(sheet: Sheet, tab: TabModel): Promise<void> {
  let pending: Record<string, unknown>;
  try {
    pending = await store().hgetall(pendingKey(sheet.id, tab.name));
  } catch {
    throw writesPaused();
  }
  for (const id of Object.keys(pending)) {
    const outcome = await fence(sheet, Number(id));
    if (!outcome) {
      throw new ApiError(
        "service_unavailable",
        `An earlier write to "${tab.name}" has an outcome Google Sheets has not confirmed yet; nothing more is written to this tab until it is settled. Nothing was changed; retry shortly.`,
        {},
        { "Retry-After": "5" },
      );
    }
    await settle(sheet.id, tab.name, Number(id), outcome);
  }
}

/** Requests guardedWrite sends before the caller's own (clearing stale markers): Google's refusals count them. */
export const GUARD_LEADING_REQUESTS = 1;

/**
 * Sends one write as a guarded batch (`build` gets the write's id for its marker) and answers
 * only when its outcome is known: the batch's replies when it was confirmed, the marker when it
 * was found to have landed after all. A write proven not to have landed is sent once more as a
 * new write. When the outcome stays unknown, `unknown(writeId)` is thrown and the write stays
 * pending, to be settled by the tab's next writer.
 */
export async function guardedWrite(
  sheet: Sheet,
  tab: TabModel,
  kind: string,
  build: (writeId: number) => SheetsRequest[],
  unknown: (writeId: number) => ApiError,
  { readBack }: { readBack?: string[] } = {},
): Promise<{ replies?: sheets_v4.Schema$Response[]; updated?: sheets_v4.Schema$Spreadsheet; marker?: Metadata }> {
  for (let round = 0; round < 2; round++) {
    if (round > 0) await sleep(BACKOFF_MS[0]!);
    const writeId = newWriteId();
    await recordPending(sheet.id, tab.name, writeId, kind);
    try {
      const { data } = await batch(sheet, [clearMarkers(tab.gid), ...build(writeId)], { readBack });
      await settle(sheet.id, tab.name, writeId);
      return { replies: data.replies ?? [], updated: data.updatedSpreadsheet };
    } catch (err) {
      if (!ambiguous(err)) {
        // Google answered no: the batch was not applied, and cannot be later.
        await settle(sheet.id, tab.name, writeId);
        throw err;
      }
      const outcome = await fence(sheet, writeId).catch(() => undefined);
      if (!outcome) {
        // It may still land: no copy from before it is served again, not even as a stale one
        // while Google is failing (a client must never read what it may have overwritten).
        await invalidateTabs(sheet, [tab.name], { confirmed: false }).catch(() => undefined);
        throw unknown(writeId);
      }
      await settle(sheet.id, tab.name, writeId);
      if (outcome.landed) return { marker: outcome.marker };
    }
  }
  throw new ApiError(
    "service_unavailable",
    "Google Sheets did not take the write (no answer in time, or a rate limit or failure twice); it was not applied and cannot apply later. Retry shortly.",
    {},
    { "Retry-After": "5" },
  );
}
