// Developer metadata as Google documents it: entries on the spreadsheet, a sheet, or rows or columns
// (which move with inserts and deletes), searchable by id, key, value or location, capped at
// 30,000 characters per spreadsheet and per sheet.
import { badRequest } from "./errors";
import type { DeveloperMetadata, MetadataLocation } from "./metadata-types";
import type { Spreadsheet } from "./model";

type Json = Record<string, unknown>;

export const METADATA_CHARACTERS_LIMIT = 30_000;

const all = (sheet: Spreadsheet): DeveloperMetadata[] => (sheet.developerMetadata ??= []);
const sheetOf = (m: DeveloperMetadata) => m.location.sheetId ?? m.location.dimensionRange?.sheetId;

function location(sheet: Spreadsheet, raw: Json | undefined, where: string): MetadataLocation {
  const given = [raw?.spreadsheet, raw?.sheetId, raw?.dimensionRange].filter(
    (v) => v !== undefined && v !== null && v !== false,
  );
  if (given.length !== 1)
    throw badRequest(`${where}location: exactly one of spreadsheet, sheetId or dimensionRange must be set.`);
  if (raw!.spreadsheet) return { locationType: "SPREADSHEET", spreadsheet: true };
  const sheetIdOf = (id: unknown) => {
    if (!sheet.tabs.some((t) => t.sheetId === id)) throw badRequest(`${where}No grid with id: ${String(id)}`);
    return id as number;
  };
  if (raw!.sheetId !== undefined) return { locationType: "SHEET", sheetId: sheetIdOf(raw!.sheetId) };
  const range = raw!.dimensionRange as Json;
  const dimension = range.dimension === "COLUMNS" ? "COLUMNS" : range.dimension === "ROWS" ? "ROWS" : undefined;
  const start = Number(range.startIndex ?? 0);
  const end = Number(range.endIndex);
  if (!dimension || !Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start) {
    throw badRequest(`${where}invalid location.dimensionRange.`);
  }
  return {
    locationType: dimension === "ROWS" ? "ROW" : "COLUMN",
    dimensionRange: { sheetId: sheetIdOf(range.sheetId ?? 0), dimension, startIndex: start, endIndex: end },
  };
}

function size(entries: DeveloperMetadata[]): number {
  return entries.reduce((n, m) => n + m.metadataKey.length + (m.metadataValue ?? "").length, 0);
}

export function createDeveloperMetadata(
  sheet: Spreadsheet,
  req: Json,
  where = "Invalid requests[0].createDeveloperMetadata: ",
): Json {
  const raw = (req.developerMetadata ?? {}) as Json;
  if (typeof raw.metadataKey !== "string" || raw.metadataKey === "")
    throw badRequest(`${where}developer metadata must always have a key specified.`);
  if (raw.visibility !== "DOCUMENT" && raw.visibility !== "PROJECT")
    throw badRequest(`${where}developer metadata must always have a visibility specified.`);
  let id = raw.metadataId === undefined ? undefined : Number(raw.metadataId);
  if (id !== undefined && (!Number.isInteger(id) || id <= 0 || id > 2 ** 31 - 1))
    throw badRequest(`${where}metadataId must be a positive 32-bit integer.`);
  if (id !== undefined && all(sheet).some((m) => m.metadataId === id)) {
    throw badRequest(`${where}Developer metadata with ID ${id} already exists. Metadata IDs must be unique.`);
  }
  id ??= 1 + Math.floor(Math.random() * (2 ** 31 - 2));
  const entry: DeveloperMetadata = {
    metadataId: id,
    metadataKey: raw.metadataKey,
    ...(typeof raw.metadataValue === "string" ? { metadataValue: raw.metadataValue } : {}),
    location: location(sheet, raw.location as Json | undefined, where),
    visibility: raw.visibility,
  };
  all(sheet).push(entry);
  const owner = sheetOf(entry);
  const sameOwner = all(sheet).filter((m) => sheetOf(m) === owner);
  if (size(sameOwner) > METADATA_CHARACTERS_LIMIT) {
    throw badRequest(
      `${where}the ${owner === undefined ? "spreadsheet" : "sheet"} would hold more than ${METADATA_CHARACTERS_LIMIT} characters of developer metadata.`,
    );
  }
  return { createDeveloperMetadata: { developerMetadata: entry } };
}

function matchesLocation(m: DeveloperMetadata, want: Json, strategy: string): boolean {
  if (want.spreadsheet) return strategy === "INTERSECTING_LOCATION" || m.location.locationType === "SPREADSHEET";
  if (want.sheetId !== undefined) {
    if (strategy === "INTERSECTING_LOCATION") return sheetOf(m) === want.sheetId;
    return m.location.locationType === "SHEET" && m.location.sheetId === want.sheetId;
  }
  const range = want.dimensionRange as Json | undefined;
  const own = m.location.dimensionRange;
  if (!range || !own || own.sheetId !== (range.sheetId ?? 0) || own.dimension !== range.dimension) return false;
  const start = Number(range.startIndex ?? 0);
  const end = Number(range.endIndex);
  if (strategy === "INTERSECTING_LOCATION") return own.startIndex < end && start < own.endIndex;
  return own.startIndex === start && own.endIndex === end;
}

/** DeveloperMetadataLookup: every field given must match. */
export function matchesLookup(m: DeveloperMetadata, lookup: Json): boolean {
  if (lookup.metadataId !== undefined && Number(lookup.metadataId) !== m.metadataId) return false;
  if (lookup.metadataKey !== undefined && lookup.metadataKey !== m.metadataKey) return false;
  if (lookup.metadataValue !== undefined && lookup.metadataValue !== (m.metadataValue ?? "")) return false;
  if (lookup.visibility !== undefined && lookup.visibility !== m.visibility) return false;
  if (lookup.locationType !== undefined && lookup.locationType !== m.location.locationType) return false;
  const strategy = String(lookup.locationMatchingStrategy ?? "EXACT_LOCATION");
  if (lookup.metadataLocation !== undefined && !matchesLocation(m, lookup.metadataLocation as Json, strategy))
    return false;
  return true;
}

function lookupOf(filter: Json, where: string): Json {
  const lookup = filter.developerMetadataLookup as Json | undefined;
  if (!lookup || typeof lookup !== "object")
    throw badRequest(`${where}the emulator supports developerMetadataLookup data filters.`);
  return lookup;
}

export function deleteDeveloperMetadata(
  sheet: Spreadsheet,
  req: Json,
  where = "Invalid requests[0].deleteDeveloperMetadata: ",
): Json {
  const lookup = lookupOf((req.dataFilter ?? {}) as Json, `${where}dataFilter: `);
  const deleted = all(sheet).filter((m) => matchesLookup(m, lookup));
  sheet.developerMetadata = all(sheet).filter((m) => !deleted.includes(m));
  return { deleteDeveloperMetadata: deleted.length ? { deletedDeveloperMetadata: deleted } : {} };
}

/** developerMetadata.search: the entries matching any of the data filters. */
export function searchDeveloperMetadata(sheet: Spreadsheet, body: Json): Json {
  const filters = Array.isArray(body.dataFilters) ? (body.dataFilters as Json[]) : [];
  const matched: Json[] = [];
  for (const m of all(sheet)) {
    const hits = filters.filter((f, i) => matchesLookup(m, lookupOf(f, `Invalid dataFilters[${i}]: `)));
    if (hits.length) matched.push({ developerMetadata: m, dataFilters: hits });
  }
  return matched.length ? { matchedDeveloperMetadata: matched } : {};
}

export function getDeveloperMetadata(sheet: Spreadsheet, id: number): Json | undefined {
  return all(sheet).find((m) => m.metadataId === id) as unknown as Json | undefined;
}

/** Rows or columns inserted at `start`: entries below move down, entries spanning it grow. */
export function shiftOnInsert(
  sheet: Spreadsheet,
  sheetId: number,
  dimension: string,
  start: number,
  count: number,
): void {
  for (const m of all(sheet)) {
    const r = m.location.dimensionRange;
    if (!r || r.sheetId !== sheetId || r.dimension !== dimension) continue;
    if (r.startIndex >= start) r.startIndex += count;
    if (r.endIndex > start) r.endIndex += count;
  }
}

/** Rows or columns [start, end) deleted: entries inside go with them, the rest close up. */
export function shiftOnDelete(
  sheet: Spreadsheet,
  sheetId: number,
  dimension: string,
  start: number,
  end: number,
): void {
  const n = end - start;
  const kept: DeveloperMetadata[] = [];
  for (const m of all(sheet)) {
    const r = m.location.dimensionRange;
    if (r && r.sheetId === sheetId && r.dimension === dimension) {
      const keptBefore = Math.max(0, Math.min(r.endIndex, start) - r.startIndex);
      const keptAfter = Math.max(0, r.endIndex - Math.max(r.startIndex, end));
      if (keptBefore + keptAfter === 0) continue;
      r.startIndex = r.startIndex < start ? r.startIndex : Math.max(start, r.startIndex - n);
      r.endIndex = r.startIndex + keptBefore + keptAfter;
    }
    kept.push(m);
  }
  sheet.developerMetadata = kept;
}
