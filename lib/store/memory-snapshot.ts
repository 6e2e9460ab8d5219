// The embedded limit store kept on disk (DATA_DIR/limit-store.json), so a restart of the one
// server forgets nothing a client could tell; what is kept and what starts afresh: README.md.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { open, rename } from "node:fs/promises";
import { dirname } from "node:path";
import { log } from "@/lib/log";

/** The least time between saves; a store that takes long to serialize is saved less often. */
const SAVE_EVERY_MS = 2_000;
/** Serializing may take at most this share of the time between saves (a store holding large Idempotency-Key answers). */
const MAX_SAVE_SHARE = 0.02;

export interface StoreSnapshot {
  /** [key, value, expiresAt (Unix ms): every stored value has a TTL] */
  entries: [string, unknown, number][];
}

const isEntry = (e: unknown): e is StoreSnapshot["entries"][number] =>
  Array.isArray(e) && e.length === 3 && typeof e[0] === "string" && typeof e[2] === "number";

/** The snapshot in `file`, or an empty one (none yet, or unreadable: said in the log); malformed entries are left out. */
export function loadSnapshot(file: string): StoreSnapshot {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return { entries: [] };
  }
  try {
    const parsed = JSON.parse(text) as { entries?: unknown };
    return { entries: Array.isArray(parsed.entries) ? parsed.entries.filter(isEntry) : [] };
  } catch (err) {
    log.warn(
      { file, reason: err instanceof Error ? err.message : String(err) },
      "limit store: the saved copy is unreadable; starting empty",
    );
    return { entries: [] };
  }
}

/**
 * Saves `snapshot()` to `file` whenever `changes()` moved since the last save: written whole to a
 * temporary file, flushed to disk and renamed over the old one, so a reader never sees half a
 * file. The save at exit has a temporary file of its own, so it cannot mix with one under way.
 */
export function keepSnapshot(file: string, changes: () => number, snapshot: () => StoreSnapshot): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  let saved = changes();
  let saving = false;
  let nextAt = 0;
  const timer = setInterval(() => {
    const seen = changes();
    if (saving || seen === saved || Date.now() < nextAt) return;
    saving = true;
    const started = performance.now();
    const text = JSON.stringify(snapshot());
    const took = performance.now() - started;
    nextAt = Date.now() + Math.max(0, took / MAX_SAVE_SHARE - SAVE_EVERY_MS);
    void writeDurably(temporary, text)
      .then(() => rename(temporary, file))
      .then(() => (saved = seen))
      .catch((err: unknown) =>
        log.warn({ file, reason: err instanceof Error ? err.message : String(err) }, "limit store: could not save"),
      )
      .finally(() => (saving = false));
  }, SAVE_EVERY_MS);
  timer.unref();
  // `exit` handlers run synchronously: the last changes are written before the process ends.
  process.once("exit", () => {
    if (changes() === saved) return;
    const last = `${file}.${process.pid}.exit.tmp`;
    try {
      const fd = openSync(last, "w", 0o600);
      try {
        writeSync(fd, JSON.stringify(snapshot()));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(last, file);
    } catch {
      // Nothing more can be done while exiting; the last periodic save stands.
    }
  });
}

async function writeDurably(path: string, text: string): Promise<void> {
  const handle = await open(path, "w", 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
