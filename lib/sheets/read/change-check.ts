// Noticing edits made in the Sheets UI: Drive's modifiedTime, asked at most once per interval per
// sheet across the fleet; a change the service's own writes do not explain starts a new change
// epoch of the sheet (README.md; DECISIONS 12).
import { randomInt } from "node:crypto";
import { withinDeadline } from "@/lib/deadline";
import { config } from "@/lib/env";
import { getLimitStore } from "@/lib/store/store";
import { withGoogle } from "@/lib/sheets/sheet-access";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import { errorFields, log } from "@/lib/log";

type WatchedSheet = Pick<SheetRecord, "id" | "access" | "refreshTokenCiphertext">;

export interface Watch {
  /** The modifiedTime of the last change seen (undefined until Drive answered). */
  modifiedTime: string | undefined;
  /** The sheet's write count when that change was seen: writes since then explain the next one. */
  writes: number | undefined;
  epoch: number;
  checkedAt: number;
  /** When this instance last looked at the fleet's answer (ms; -Infinity: never). */
  lookedAt?: number;
  flight?: Promise<void>;
  /** This instance's look at the fleet's last answer, shared by concurrent readers. */
  looking?: Promise<void>;
}

/** Drive's last answer for a sheet as the fleet knows it; `v` is when it came (Unix ms). */
interface FleetAnswer {
  v: number;
  modifiedTime: string | undefined;
  writes: number | undefined;
  epoch: number;
}

const MAX_WATCHES = 5000;
const watches = new Map<string, Watch>();
// Epochs are random (48 bits), so unique across the fleet and over time: a watch dropped and
// made again never matches old copies, and an epoch one instance started means the same change
// to every instance that takes it from the store.
const newEpoch = () => randomInt(2 ** 47);
const FLEET_ANSWER_TTL_SECONDS = 7 * 24 * 3600;

/** The store key counting writes through the service to a sheet (any tab, any instance). */
export const sheetWritesKey = (sheetId: string) => `sheetapi:data:${sheetId}`;
/** Beside it: when the newest of those writes was confirmed (`v`, Unix ms). */
export const sheetWrittenAtKey = (sheetId: string) => `sheetapi:data-at:${sheetId}`;
const WRITTEN_AT_TTL_SECONDS = 7 * 24 * 3600;
/** How long an instance that lost the claim waits before it looks for the claimant's answer again. */
const LOOK_AGAIN_MS = 100;

async function askDrive(sheet: WatchedSheet): Promise<string | undefined> {
  try {
    const { data } = await withGoogle(
      sheet,
      "drive.files.get",
      (c) => c.drive.files.get({ fileId: sheet.id, fields: "modifiedTime", supportsAllDrives: true }),
      false,
      { quota: false },
    );
    return data.modifiedTime ?? undefined;
  } catch (err) {
    log.warn({ sheet: sheet.id, ...errorFields(err) }, "cache: Drive change check failed, the cache TTL applies");
    return undefined;
  }
}

/** The sheet's write count and when its newest write was confirmed, as the store has them (undefined: the store could not say). */
async function writeState(sheetId: string): Promise<{ writes?: number; writtenAt?: number }> {
  try {
    const [count, at] = await getLimitStore().mget<unknown>([sheetWritesKey(sheetId), sheetWrittenAtKey(sheetId)]);
    const writtenAt = (at as { v?: unknown } | null)?.v;
    return { writes: Number(count ?? 0), writtenAt: typeof writtenAt === "number" ? writtenAt : undefined };
  } catch {
    return {};
  }
}

/**
 * Takes Drive's answer: a change no write explains starts a new epoch. `writtenAt`: when the
 * newest write through the service was confirmed, fleet-wide (undefined: unknown, and the write
 * count says instead).
 */
export function noteAnswer(
  watch: Watch,
  modifiedTime: string | undefined,
  writes: number | undefined,
  now: number,
  writtenAt?: number,
): void {
  watch.checkedAt = now;
  if (modifiedTime === undefined) return; // Drive could not tell: the TTL applies.
  if (modifiedTime !== watch.modifiedTime) {
    const explained =
      writtenAt !== undefined
        ? Date.parse(modifiedTime) <= writtenAt
        : writes !== undefined && watch.writes !== undefined && writes > watch.writes;
    if (!explained || watch.modifiedTime === undefined) watch.epoch = newEpoch();
    watch.modifiedTime = modifiedTime;
    watch.writes = writes;
  } else if (watch.writes === undefined) {
    watch.writes = writes;
  }
}

/**
 * After a write through the service to the sheet was confirmed (and counted in the sheet's write
 * count): the change of modifiedTime it causes is explained by this time, on every instance,
 * whenever Drive reports it, so Drive is not asked for it.
 */
export async function noteConfirmedWrite(sheetId: string, at = Date.now()): Promise<void> {
  await getLimitStore().setIfNewer(sheetWrittenAtKey(sheetId), { v: at }, WRITTEN_AT_TTL_SECONDS);
}

const fleetKey = (sheetId: string) => `sheetapi:drive:${sheetId}`;
export const driveClaimKey = (sheetId: string) => `sheetapi:drive-claim:${sheetId}`;

/** Takes the fleet's answer when it is newer than what this instance knows. */
function adopt(watch: Watch, answer: FleetAnswer | null | undefined): void {
  if (!answer || answer.v < watch.checkedAt) return;
  // A failed check tells only when to ask again: what this instance knew of the file stands.
  if (answer.modifiedTime === undefined) watch.checkedAt = answer.v;
  else
    Object.assign(watch, {
      modifiedTime: answer.modifiedTime,
      writes: answer.writes,
      epoch: answer.epoch,
      checkedAt: answer.v,
    });
}

/** Hands this instance's answer to the others (a later answer already there is kept). */
function publish(sheetId: string, watch: Watch): void {
  const answer: FleetAnswer = {
    v: watch.checkedAt,
    modifiedTime: watch.modifiedTime,
    writes: watch.writes,
    epoch: watch.epoch,
  };
  getLimitStore()
    .setIfNewer(fleetKey(sheetId), answer, FLEET_ANSWER_TTL_SECONDS)
    .catch(() => undefined);
}

/**
 * The fleet's last answer when it is recent; else Drive is asked by whichever instance claims
 * the check (this one, or another whose answer the next look finds). Without the store, this
 * instance asks for itself.
 */
async function lookFleet(sheet: WatchedSheet, watch: Watch, interval: number): Promise<void> {
  const store = getLimitStore();
  let claimed: boolean;
  watch.lookedAt = Date.now();
  try {
    const [answer] = await store.mget<FleetAnswer>([fleetKey(sheet.id)]);
    adopt(watch, answer);
    if (Date.now() - watch.checkedAt < interval) return;
    // The claim lasts one interval: one Drive check per sheet and interval, whoever makes it.
    claimed = await store.putIfAbsent(driveClaimKey(sheet.id), {}, Math.max(interval, 1) / 1000);
  } catch {
    claimed = true;
  }
  if (claimed) await ask(sheet, watch);
}

function ask(sheet: WatchedSheet, watch: Watch): Promise<void> {
  watch.flight ??= Promise.all([askDrive(sheet), writeState(sheet.id)]).then(
    ([modifiedTime, { writes, writtenAt }]) => {
      noteAnswer(watch, modifiedTime, writes, Date.now(), writtenAt);
      // A failed check too: the others wait for the next interval, as this instance does.
      publish(sheet.id, watch);
      watch.flight = undefined;
    },
  );
  return watch.flight;
}

function watchOf(sheetId: string): Watch {
  let watch = watches.get(sheetId);
  if (!watch) {
    if (watches.size >= MAX_WATCHES) watches.delete(watches.keys().next().value!);
    watch = { modifiedTime: undefined, writes: undefined, epoch: newEpoch(), checkedAt: -Infinity };
    watches.set(sheetId, watch);
  }
  return watch;
}

/**
 * The sheet's change epoch as Drive reported it at most `interval` ago. A cached tab read in the
 * same epoch has seen every change Drive reported since (or the writes that explain them).
 */
export async function changeEpoch(sheet: WatchedSheet, now = Date.now()): Promise<number> {
  const watch = watchOf(sheet.id);
  const interval = config().env.CHANGE_CHECK_INTERVAL_MS;
  // Past the interval, and not looked at the fleet's answer just now (a claim lost to another instance).
  if (now - watch.checkedAt >= interval && !(now - (watch.lookedAt ?? -Infinity) < Math.min(interval, LOOK_AGAIN_MS))) {
    watch.looking ??= lookFleet(sheet, watch, interval).finally(() => (watch.looking = undefined));
    await withinDeadline(watch.looking, CHANGE_CHECK_WAIT_MS);
  }
  return watch.epoch;
}

/**
 * How long a read waits for Drive's answer. Drive only ever makes an edit show sooner than the
 * TTL (DECISIONS 12), so a slow Drive must not slow the reads a cached copy can answer: past
 * this, the read goes on with the epoch as it stands, and the call, still in flight, moves the
 * epoch for the reads after it.
 */
const CHANGE_CHECK_WAIT_MS = 300;

/** The sheet's change epoch as this instance knows it, without asking Drive; undefined before Drive's first answer. */
export function knownEpoch(sheetId: string): number | undefined {
  const watch = watches.get(sheetId);
  return watch?.modifiedTime === undefined ? undefined : watch.epoch;
}
