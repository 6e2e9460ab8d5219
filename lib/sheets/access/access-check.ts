// Proof of access is current, not historical (DECISIONS 18): the account that registered a sheet
// must still be able to open it (and edit it, if it registered it writable) in Google. Its access
// is asked again with its own grant (Drive files.get, lib/sheets/registration/proof.ts) while the sheet is in
// use: the first request after ACCESS_RECHECK_INTERVAL_MS since the last check starts one check.
//
// Fleet-wide: the check time and the answer are columns of the sheet's row, and the answer goes
// out through the sheet's record in the limit store like any other change (lib/sheets/registration/sheet-record.ts),
// so every instance honours it on its next request. One instance takes each turn (a conditional
// update of the check time); on it, concurrent requests share one flight.
//
// The request that finds the check due waits for it, up to CHECK_WAIT_MS, so a change in Google
// is honoured within the interval by that very request; past the bound (Google slow) it goes on
// with the last known state and the check lands for the requests after it. Requests on other
// instances meanwhile go on with the last known state too: they are at most one check late.
// Google failing (outage, quota) proves nothing either way: the state stays and the check is
// tried again RETRY_AFTER_FAILURE_MS later.
import { recordAccessCheck, takeAccessCheck } from "@/db/queries/sheets";
import type { AccessState, Sheet, SheetProof } from "@/db/schema";
import { TOO_SLOW, withinDeadline } from "@/lib/deadline";
import { config } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { needsPicker, proveAccess, type Proof } from "@/lib/sheets/registration/proof";
import { publishSheetQuietly, toSheetRecord, type SheetRecord } from "@/lib/sheets/registration/sheet-record";

const CHECK_WAIT_MS = 5_000;
const RETRY_AFTER_FAILURE_MS = 30_000;

const interval = () => config().env.ACCESS_RECHECK_INTERVAL_MS;

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

/**
 * Asks Google about the registrant with their own grants. No grant left (revoked, or never given)
 * proves nothing, so the registration is suspended until they connect Google and prove again.
 * Google failing for any other reason is thrown: an outage never suspends a sheet.
 */
async function askGoogle(row: Pick<Sheet, "id" | "userId" | "proof">): Promise<AccessState> {
  try {
    return accessStateOf((await proveAccess(row.userId, row.id)).level, row.proof);
  } catch (err) {
    if (needsPicker(err)) return accessStateOf(undefined, row.proof);
    throw err;
  }
}

/** Records the state for every instance (suspending drops the sheet's queued webhook deliveries). */
async function record(row: Pick<Sheet, "id" | "userId">, state: AccessState, at = new Date()): Promise<Sheet | undefined> {
  const saved = await recordAccessCheck({ id: row.id, userId: row.userId, state, at });
  await publishSheetQuietly(saved);
  return saved;
}

/**
 * Asks Google now and records the answer (a contested registration: DECISIONS 18 asks at once).
 * Google failing is thrown and nothing is recorded.
 */
export async function recheckAccess(row: Sheet): Promise<Sheet> {
  return (await record(row, await askGoogle(row))) ?? row;
}

/**
 * The registrant proving access again (registering their sheet again): Google's refusal is thrown
 * as registration answers it (403 naming the account, how to pick the sheet); an answer is recorded.
 */
export async function proveAgain(row: Sheet): Promise<Sheet> {
  const proof = await proveAccess(row.userId, row.id);
  return (await record(row, accessStateOf(proof.level, row.proof))) ?? row;
}

/** The check of one turn, on the instance that took it. */
async function checkInTurn(sheet: SheetRecord): Promise<SheetRecord> {
  const now = new Date();
  const row = await takeAccessCheck({ id: sheet.id, userId: sheet.userId, dueBefore: new Date(now.getTime() - interval()), now });
  if (!row) return sheet; // another instance took this turn: its answer reaches us through the store
  let state: AccessState;
  try {
    state = await askGoogle(row);
  } catch (err) {
    log.warn({ sheet: sheet.id, ...errorFields(err) }, "sheets: the registrant's access could not be re-checked; the last known state holds");
    const retryAt = new Date(now.getTime() - interval() + Math.min(RETRY_AFTER_FAILURE_MS, interval()));
    await record(row, row.accessState, retryAt);
    return sheet;
  }
  if (state !== row.accessState) log.info({ sheet: sheet.id, access_state: state }, "sheets: the registrant's access changed in Google");
  const saved = await record(row, state, now);
  return saved ? toSheetRecord(saved) : sheet;
}

const flights = new Map<string, Promise<SheetRecord>>();

/**
 * The sheet's record with the registrant's access as current as the interval requires: as it is
 * when not due; otherwise after this instance's check of the turn (shared by concurrent requests),
 * waited for up to CHECK_WAIT_MS.
 */
export async function currentAccess(sheet: SheetRecord): Promise<SheetRecord> {
  if (!accessCheckDue(sheet)) return sheet;
  let flight = flights.get(sheet.id);
  if (!flight) {
    flight = checkInTurn(sheet)
      .catch((err: unknown) => {
        log.warn({ sheet: sheet.id, ...errorFields(err) }, "sheets: access re-check failed");
        return sheet;
      })
      .finally(() => flights.delete(sheet.id));
    flights.set(sheet.id, flight);
  }
  const checked = await withinDeadline(flight, CHECK_WAIT_MS);
  return checked === TOO_SLOW ? sheet : checked;
}
