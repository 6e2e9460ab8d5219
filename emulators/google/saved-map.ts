// A Map mirrored to a JSON file, as Google keeps what it granted: the emulator's refresh tokens
// outlive a restart, so sheets reached through an owner's grant keep working after one.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** Writes `text` to `file` whole or not at all (a temporary file renamed over it), its folder made if need be. */
export function writeFileWhole(file: string, text: string, mode?: number): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, text, mode === undefined ? undefined : { mode });
  renameSync(tmp, file);
}

export class SavedMap<V> extends Map<string, V> {
  private file?: string;

  /** `file`: where the entries are kept (none: in memory only); entries saved there are loaded. */
  constructor(file?: string) {
    super();
    if (file && existsSync(file)) {
      for (const [key, value] of JSON.parse(readFileSync(file, "utf8")) as [string, V][]) super.set(key, value);
    }
    this.file = file;
  }

  override set(key: string, value: V): this {
    super.set(key, value);
    this.save();
    return this;
  }

  override delete(key: string): boolean {
    const deleted = super.delete(key);
    if (deleted) this.save();
    return deleted;
  }

  override clear(): void {
    super.clear();
    this.save();
  }

  private save(): void {
    if (this.file) writeFileWhole(this.file, JSON.stringify([...this.entries()]), 0o600);
  }
}
