// Proof of access is current, not historical (DECISIONS 18): while a sheet is in use, the
// registrant's access is asked again with its own grant once per ACCESS_RECHECK_INTERVAL_MS, one
// instance taking each turn for the fleet (README.md).
import { getGrant } from "@/db/queries/grants";
import { getSheet, recordAccessCheck, saveSheetGrant, takeAccessCheck } from "@/db/queries/sheets";
import type { AccessState, GoogleGrant, Sheet, SheetProof } from "@/db/schema";
import { TOO_SLOW, withinDeadline } from "@/lib/deadline";
import { config } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { needsPicker, proveAccess, proveWithGrant, usable, type Proof } from "@/lib/sheets/access/proof";
import { publishSheetQuietly, toSheetRecord, type SheetRecord } from "@/lib/sheets/sheet-record";

const CHECK_WAIT_MS = 5_000;
const RETRY_AFTER_FAILURE_MS = 30_000;

const interval = () => config().env.ACCESS_RECHECK_INTERVAL_MS;
const grace = () => config().env.ACCESS_PROOF_GRACE_MS;

/** True when the registrant's access was last confirmed an interval ago or more (or never). */
export function accessCheckDue(sheet: Pick<SheetRecord, "accessState" | "accessCheckedAt">, now = Date.now()): boolean {
  if (sheet.accessState === "service") return false;
  return now - (sheet.accessCheckedAt ?? 0) >= interval();
}

/** What an answer of Google means for a registration made with `proof`; `undefined`: it cannot open it. */
export function accessStateOf(level: Proof["level"] | undefined, proof: SheetProof): AccessState {
  if (!level) return "suspended";
  return proof === "edit" && level !== "edit" ? "read_only" : "current";
}

/** What a check records: the state, and for a registration made before proof existed, its grace and proof. */
export interface AccessAnswer {
  state: AccessState;
  /** Set when first found unproven; cleared once proven. Absent: unchanged. */
  unprovenSince?: Date | null;
  /** The proof a registration made before proof existed has once Google confirms it. */
  proof?: SheetProof;
}

type Registrant = Pick<Sheet, "proof" | "writable" | "accessUnprovenSince">;

/**
 * What Google's answer means for the registration. One made before proof existed (proof "none")
 * is not suspended the first time it cannot be proven: it is served as `unproven` for
 * ACCESS_PROOF_GRACE_MS from that check, its owner asked to prove access, and suspended only once
 * the grace ends (docs/security.md). Proven, it holds the proof its registration claims
 * (writable: edit) and is re-checked like any other from then on.
 */
export function accessAnswerOf(level: Proof["level"] | undefined, row: Registrant, now = new Date()): AccessAnswer {
  if (row.proof !== "none") return { state: accessStateOf(level, row.proof) };
  const claimed: SheetProof = row.writable ? "edit" : "view";
  if (level) return { state: accessStateOf(level, claimed), proof: claimed, unprovenSince: null };
  const since = row.accessUnprovenSince ?? now;
  return { state: now.getTime() - since.getTime() >= grace() ? "suspended" : "unproven", unprovenSince: since };
}

/** When an unproven registration is suspended unless its owner proves access first. */
export function unprovenUntil(row: Pick<Sheet, "accessState" | "accessUnprovenSince">): Date | undefined {
  if (row.accessState !== "unproven" || !row.accessUnprovenSince) return undefined;
  return new Date(row.accessUnprovenSince.getTime() + grace());
}

/** The grant the sheet is reached through, while Google may still be asked with it. */
async function ownGrant(row: Pick<Sheet, "grantId" | "userId">): Promise<GoogleGrant | undefined> {
  const grant = row.grantId ? await getGrant({ id: row.grantId, userId: row.userId }) : undefined;
  return grant && usable(grant) ? grant : undefined;
}

/**
 * What Google says the registrant may do with the sheet now; undefined when it cannot open it, or
 * when no grant is left to ask with (revoked, or never given): that proves nothing, so the
 * registration lapses until they connect Google and prove again. Google failing for any other
 * reason is thrown: an outage never suspends a sheet.
 */
async function askGoogle(
  row: Pick<Sheet, "id" | "userId" | "access" | "grantId">,
): Promise<Proof["level"] | undefined> {
  if (row.access === "oauth") {
    const grant = await ownGrant(row);
    return grant ? (await proveWithGrant(grant, row.id))?.level : undefined;
  }
  try {
    return (await proveAccess(row.userId, row.id)).level;
  } catch (err) {
    if (needsPicker(err)) return undefined;
    throw err;
  }
}

/** Records the answer for every instance (suspending drops the sheet's queued webhook deliveries). */
async function record(
  row: Pick<Sheet, "id" | "userId">,
  answer: AccessAnswer,
  at = new Date(),
): Promise<Sheet | undefined> {
  const saved = await recordAccessCheck({ id: row.id, userId: row.userId, at, ...answer });
  await publishSheetQuietly(saved);
  return saved;
}

/**
 * Asks Google now and records the answer (a contested registration: DECISIONS 18 asks at once).
 * Google failing is thrown and nothing is recorded.
 */
export async function recheckAccess(row: Sheet): Promise<Sheet> {
  return (await record(row, accessAnswerOf(await askGoogle(row), row))) ?? row;
}

/**
 * The registrant proving access again (registering their sheet again): Google's refusal is thrown
 * as registration answers it (403 naming the account, how to pick the sheet); an answer is recorded.
 * A sheet reached through a grant Google no longer accepts for it moves to the registrant's grant
 * that proved access, so its reads and its next re-check go out with the grant that can open it.
 */
export async function proveAgain(row: Sheet): Promise<Sheet> {
  const own = row.access === "oauth" ? await ownGrant(row) : undefined;
  const proof = (own && (await proveWithGrant(own, row.id))) || (await proveAccess(row.userId, row.id));
  const reached =
    row.access === "oauth" && proof.grant.id !== row.grantId ? ((await moveToGrant(row, proof.grant)) ?? row) : row;
  return (await record(reached, accessAnswerOf(proof.level, reached))) ?? reached;
}

function moveToGrant(row: Sheet, grant: GoogleGrant): Promise<Sheet | undefined> {
  const { access, writable, proof, serviceAccount } = row;
  return saveSheetGrant({
    id: row.id,
    userId: row.userId,
    access,
    writable,
    proof,
    serviceAccount,
    grantId: grant.id,
    refreshTokenCiphertext: grant.refreshTokenCiphertext,
    grantEmail: grant.email,
  });
}

/**
 * Sheets whose turn this instance just lost (or could not take: the database failing), and until
 * when it goes on with the last known state without asking again.
 */
const askAgainAt = new Map<string, number>();

/** Remembers until when not to ask about a sheet again; entries past their time are swept as the map grows. */
function askAgainLater(sheetId: string, until: number): void {
  if (askAgainAt.size >= 1_000) for (const [id, at] of askAgainAt) if (at <= Date.now()) askAgainAt.delete(id);
  askAgainAt.set(sheetId, until);
}

/** The check of one turn, on the instance that took it. */
async function checkInTurn(sheet: SheetRecord): Promise<SheetRecord> {
  const now = new Date();
  const row = await takeAccessCheck({
    id: sheet.id,
    userId: sheet.userId,
    dueBefore: new Date(now.getTime() - interval()),
    now,
  });
  if (!row) {
    // Another instance took this turn: its answer reaches us through the store, in CHECK_WAIT_MS at most.
    askAgainLater(sheet.id, now.getTime() + CHECK_WAIT_MS);
    return sheet;
  }
  let answer: AccessAnswer;
  try {
    answer = accessAnswerOf(await askGoogle(row), row, now);
  } catch (err) {
    log.warn(
      { sheet: sheet.id, ...errorFields(err) },
      "sheets: the registrant's access could not be re-checked; the last known state holds",
    );
    const retryAt = new Date(now.getTime() - interval() + Math.min(RETRY_AFTER_FAILURE_MS, interval()));
    await record(row, { state: row.accessState }, retryAt);
    return sheet;
  }
  if (answer.state !== row.accessState)
    log.info({ sheet: sheet.id, access_state: answer.state }, "sheets: the registrant's access changed in Google");
  const saved = await record(row, answer, now);
  return saved ? toSheetRecord(saved) : sheet;
}

/**
 * Once a lost turn's answer should be in (or after a check that failed or was slow here): the
 * store's record still says the check is due, so the answer is read once from the database, where
 * the check recorded it (and written to the store, which missed it). Still due there: this
 * instance takes the next turn.
 */
async function recordedAnswer(sheet: SheetRecord): Promise<SheetRecord | undefined> {
  const row = await getSheet({ id: sheet.id });
  if (!row || row.userId !== sheet.userId) return undefined;
  const recorded = toSheetRecord(row);
  if (accessCheckDue(recorded)) return undefined;
  await publishSheetQuietly(row);
  return recorded;
}

const flights = new Map<string, Promise<SheetRecord>>();

/**
 * The sheet's record with the registrant's access as current as the interval requires: as it is
 * when not due; otherwise after this instance's check of the turn (shared by concurrent requests),
 * waited for up to CHECK_WAIT_MS.
 */
export async function currentAccess(sheet: SheetRecord): Promise<SheetRecord> {
  if (!accessCheckDue(sheet)) return sheet;
  const waitUntil = askAgainAt.get(sheet.id);
  if (waitUntil !== undefined && Date.now() < waitUntil) return sheet;
  let flight = flights.get(sheet.id);
  if (!flight) {
    askAgainAt.delete(sheet.id);
    const askedBefore = waitUntil !== undefined;
    flight = (async () => (askedBefore ? await recordedAnswer(sheet) : undefined) ?? (await checkInTurn(sheet)))()
      .catch((err: unknown) => {
        log.warn({ sheet: sheet.id, ...errorFields(err) }, "sheets: access re-check failed");
        askAgainLater(sheet.id, Date.now() + CHECK_WAIT_MS);
        return sheet;
      })
      .finally(() => flights.delete(sheet.id));
    flights.set(sheet.id, flight);
  }
  const checked = await withinDeadline(flight, CHECK_WAIT_MS);
  if (checked !== TOO_SLOW) return checked;
  // The database or Google is slow: the requests that follow do not each wait for it again.
  askAgainLater(sheet.id, Date.now() + CHECK_WAIT_MS);
  return sheet;
}
