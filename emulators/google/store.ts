// Where the emulator keeps its spreadsheets: in memory, optionally mirrored to a JSON file so a
// restart keeps what was written.
import { readFileSync, existsSync } from "node:fs";
import { writeFileWhole } from "./saved-map";
import { buildSpreadsheet, newSpreadsheetId, type Spreadsheet, type SpreadsheetSeed } from "./model";

export class SpreadsheetStore {
  private sheets = new Map<string, Spreadsheet>();

  constructor(
    private readonly seeds: () => SpreadsheetSeed[],
    private readonly file?: string,
  ) {
    if (file && existsSync(file)) {
      const saved = JSON.parse(readFileSync(file, "utf8")) as Spreadsheet[];
      for (const s of saved) this.sheets.set(s.spreadsheetId, s);
    } else {
      this.reset();
    }
  }

  reset(): void {
    this.sheets.clear();
    for (const seed of this.seeds()) this.add(seed);
  }

  add(seed: SpreadsheetSeed): Spreadsheet {
    const sheet = buildSpreadsheet(seed);
    this.sheets.set(sheet.spreadsheetId, sheet);
    this.save();
    return sheet;
  }

  /** "Make a copy", as in the Sheets UI: same title, tabs, values and sharing, a new id. */
  copy(id: string): Spreadsheet {
    const source = this.sheets.get(id);
    if (!source) throw new Error(`unknown spreadsheet ${id}`);
    const now = new Date().toISOString();
    const sheet = {
      ...structuredClone(source),
      spreadsheetId: newSpreadsheetId(),
      createdTime: now,
      modifiedTime: now,
      pendingEdits: undefined,
      version: 1,
    };
    this.sheets.set(sheet.spreadsheetId, sheet);
    this.save();
    return sheet;
  }

  list(): Spreadsheet[] {
    return [...this.sheets.values()];
  }

  get(id: string): Spreadsheet | undefined {
    return this.sheets.get(id);
  }

  /** Runs a change on a copy and keeps it only if the change did not throw. */
  mutate<T>(id: string, change: (copy: Spreadsheet) => T): T {
    const current = this.sheets.get(id);
    if (!current) throw new Error(`unknown spreadsheet ${id}`);
    const copy = structuredClone(current);
    const result = change(copy);
    this.sheets.set(id, copy);
    this.save();
    return result;
  }

  private save(): void {
    if (this.file) writeFileWhole(this.file, JSON.stringify([...this.sheets.values()]));
  }
}
