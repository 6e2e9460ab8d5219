// The embedded limit store kept on disk (DATA_DIR/limit-store.json), so a restart of the one
// server forgets nothing a client could tell: plan counters (a month's use does not start over),
// Idempotency-Key answers, data versions, pending writes to settle. Written a moment after a
// change (at most every SAVE_EVERY_MS) and once more as the process exits; a crash loses at most
// that moment. Locks are not kept: their holders died with the process. Nor are the sliding
// minutes of burst limits: a request's time each, tens of thousands under load, written every
// 2 s for a window that a restart outlasts anyway.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { writeFile, rename } from "node:fs/promises";
import { dirname } from "node:path";
import { log } from "@/lib/log";

const SAVE_EVERY_MS = 2_000;

export interface StoreSnapshot {
  /** [key, value, expiresAt (ms; null for never)] */
  entries: [string, unknown, number | null][];
}

/** The snapshot in `file`, or an empty one (none yet, or unreadable: said in the log). */
export function loadSnapshot(file: string): StoreSnapshot {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return { entries: [] };
  }
  try {
    const parsed = JSON.parse(text) as Partial<StoreSnapshot>;
    return { entries: Array.isArray(parsed.entries) ? parsed.entries : [] };
  } catch (err) {
    log.warn({ file, reason: err instanceof Error ? err.message : String(err) }, "limit store: the saved copy is unreadable; starting empty");
    return { entries: [] };
  }
}

/**
 * Saves `snapshot()` to `file` whenever `changes()` moved since the last save, written whole to
 * a temporary file and renamed over the old one, so a reader never sees half a file.
 */
export function keepSnapshot(file: string, changes: () => number, snapshot: () => StoreSnapshot): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  let saved = changes();
  let saving = false;
  const timer = setInterval(() => {
    const seen = changes();
    if (saving || seen === saved) return;
    saving = true;
    void writeFile(temporary, JSON.stringify(snapshot()), { mode: 0o600 })
      .then(() => rename(temporary, file))
      .then(() => (saved = seen))
      .catch((err: unknown) => log.warn({ file, reason: err instanceof Error ? err.message : String(err) }, "limit store: could not save"))
      .finally(() => (saving = false));
  }, SAVE_EVERY_MS);
  timer.unref();
  // `exit` handlers run synchronously: the last changes are written before the process ends.
  process.once("exit", () => {
    if (changes() === saved) return;
    try {
      writeFileSync(temporary, JSON.stringify(snapshot()), { mode: 0o600 });
      renameSync(temporary, file);
    } catch {
      // Nothing more can be done while exiting; the last periodic save stands.
    }
  });
}
