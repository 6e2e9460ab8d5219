// The emulator's spreadsheets: tabs of cells, sharing settings and a modification clock.
import { badRequest } from "./errors";
import type { DeveloperMetadata } from "./metadata-types";
import { rawCell, type Cell, type NumberFormat, type Scalar } from "./values";

export type Role = "reader" | "writer" | "owner";

export interface Tab {
  sheetId: number;
  title: string;
  rowCount: number;
  columnCount: number;
  /** Sparse grid: rows[r][c]; a missing entry is an empty cell. */
  rows: (Cell | null)[][];
  /** Formats applied to data cells (row 2 down) that carry none of their own. */
  columnFormats?: Record<number, NumberFormat>;
  frozenRowCount?: number;
  hidden?: boolean;
  hideGridlines?: boolean;
  /** Merged ranges (merges.ts). */
  merges?: { startRowIndex: number; endRowIndex: number; startColumnIndex: number; endColumnIndex: number }[];
  /** Cell notes by "row:column" (notes.ts). */
  notes?: Record<string, string>;
}

export interface Spreadsheet {
  spreadsheetId: string;
  title: string;
  locale: string;
  timeZone: string;
  tabs: Tab[];
  /** "anyone with the link" access, then named accounts (users and service accounts). */
  linkAccess: Role | "none";
  members: Record<string, Role | "none">;
  /** Accounts that gave an app `drive.file` access to this file (Picker), as "client email". */
  fileGrants?: string[];
  /** Set for a file in a shared drive: Drive finds it only with `supportsAllDrives=true`. */
  driveId?: string;
  /** Drive's createdTime (absent in files saved before it was kept: modifiedTime stands in). */
  createdTime?: string;
  /** Drive's modifiedTime as reported: it moves only once an edit has settled (see settledModifiedTime). */
  modifiedTime: string;
  /** Edits Drive does not report yet: the first one's time and the latest one's. */
  pendingEdits?: { since: number; latest: number };
  /** Bumped on every change, like Drive's file version. */
  version: number;
  nextSheetId: number;
  /** Developer metadata of the spreadsheet, its sheets, rows and columns (see metadata.ts). */
  developerMetadata?: DeveloperMetadata[];
}

export interface TabSeed {
  title: string;
  rows: (Scalar | null)[][];
  columnFormats?: Record<string, NumberFormat>;
  rowCount?: number;
  columnCount?: number;
  frozenRowCount?: number;
}

export interface SpreadsheetSeed {
  spreadsheetId?: string;
  title: string;
  tabs: TabSeed[];
  linkAccess?: Role | "none";
  members?: Record<string, Role | "none">;
  /** `properties.locale` and `properties.timeZone`; en_US and Etc/UTC when not given. */
  locale?: string;
  timeZone?: string;
  driveId?: string;
}

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

export function newSpreadsheetId(): string {
  let id = "1";
  for (let i = 0; i < 43; i++) id += ID_ALPHABET[Math.floor(Math.random() * ID_ALPHABET.length)];
  return id;
}

function buildTab(seed: TabSeed, sheetId: number): Tab {
  const width = Math.max(0, ...seed.rows.map((r) => r.length));
  const columnFormats: Record<number, NumberFormat> = {};
  const header = seed.rows[0] ?? [];
  for (const [name, fmt] of Object.entries(seed.columnFormats ?? {})) {
    const index = header.indexOf(name);
    if (index >= 0) columnFormats[index] = fmt;
  }
  return {
    sheetId,
    title: seed.title,
    rowCount: Math.max(seed.rowCount ?? 1000, seed.rows.length),
    columnCount: Math.max(seed.columnCount ?? 26, width),
    // A seeded "=..." is a formula, as if typed into the Sheets UI.
    rows: seed.rows.map((r) =>
      r.map((v) =>
        v === null || v === ""
          ? null
          : typeof v === "string" && v.startsWith("=")
            ? { value: v, formula: true }
            : rawCell(v),
      ),
    ),
    columnFormats,
    ...(seed.frozenRowCount ? { frozenRowCount: seed.frozenRowCount } : {}),
  };
}

export function buildSpreadsheet(seed: SpreadsheetSeed): Spreadsheet {
  const now = new Date().toISOString();
  const tabs = seed.tabs.map((t, i) => buildTab(t, i === 0 ? 0 : 1_000_000 + i * 7919));
  return {
    spreadsheetId: seed.spreadsheetId ?? newSpreadsheetId(),
    title: seed.title,
    locale: seed.locale ?? "en_US",
    timeZone: seed.timeZone ?? "Etc/UTC",
    tabs,
    linkAccess: seed.linkAccess ?? "none",
    members: seed.members ?? {},
    ...(seed.driveId ? { driveId: seed.driveId } : {}),
    createdTime: now,
    modifiedTime: now,
    version: 1,
    nextSheetId: 2_000_000,
  };
}

/**
 * Drive's modifiedTime does not move at once for spreadsheets: it is reported to move about every
 * 3 minutes after edits (google-api-go-client #444). The emulator reports an edit once the first
 * unreported edit is `lagMs` old, then jumps to the latest edit: a hint that may come late.
 */
export const DEFAULT_MODIFIED_TIME_LAG_MS = 180_000;

export function touch(sheet: Spreadsheet, now = Date.now()): void {
  // Edit times strictly increase even for two changes within one millisecond.
  const last = Math.max(Date.parse(sheet.modifiedTime), sheet.pendingEdits?.latest ?? 0);
  const at = Math.max(now, last + 1);
  sheet.pendingEdits = { since: sheet.pendingEdits?.since ?? at, latest: at };
  sheet.version += 1;
}

/** Reports the edits that have settled by `now` (lag 0: every edit at once); returns modifiedTime. */
export function settledModifiedTime(sheet: Spreadsheet, lagMs: number, now = Date.now()): string {
  const pending = sheet.pendingEdits;
  if (pending && now - pending.since >= lagMs) {
    sheet.modifiedTime = new Date(pending.latest).toISOString();
    delete sheet.pendingEdits;
  }
  return sheet.modifiedTime;
}

export function cellAt(tab: Tab, row: number, col: number): Cell | undefined {
  return tab.rows[row]?.[col] ?? undefined;
}

/** Google's limit on one cell's content, its text or a formula ("up to 50,000 characters", support.google.com/drive/answer/37603). */
export const MAX_CELL_CHARACTERS = 50_000;

/** Writes one cell; a write whose cell is too long fails whole (the store keeps the copy it was made on). */
export function setCell(tab: Tab, row: number, col: number, cell: Cell | null): void {
  if (typeof cell?.value === "string" && cell.value.length > MAX_CELL_CHARACTERS) {
    throw badRequest(
      `Your input contains more than the maximum of ${MAX_CELL_CHARACTERS} characters in a single cell.`,
    );
  }
  // Rows in between stay holes: a write far down a tall grid allocates one row, not millions.
  const r = (tab.rows[row] ??= []);
  while (r.length <= col) r.push(null);
  r[col] = cell;
  tab.rowCount = Math.max(tab.rowCount, row + 1);
  tab.columnCount = Math.max(tab.columnCount, col + 1);
}

export function columnFormatFor(tab: Tab, row: number, col: number): NumberFormat | undefined {
  return row === 0 ? undefined : tab.columnFormats?.[col];
}

/** Index one past the last row holding any value (0 for an empty tab). */
export function usedRowCount(tab: Tab): number {
  for (let r = tab.rows.length - 1; r >= 0; r--) {
    if (tab.rows[r]?.some((c) => c !== null && c !== undefined)) return r + 1;
  }
  return 0;
}

export function usedColumnCount(tab: Tab): number {
  let width = 0;
  for (const row of tab.rows) {
    for (let c = (row?.length ?? 0) - 1; c >= width; c--) {
      if (row![c]) {
        width = c + 1;
        break;
      }
    }
  }
  return width;
}
