// Replays traffic recorded against the real Sheets v4 and Drive v3 APIs (recordings/, from
// gspread's test suite) against the emulator, in the order it ran, and compares each answer with
// Google's: status, JSON shape and every value but the volatile ones (VOLATILE_FIELDS).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SERVED_BATCH_REQUESTS } from "./sheets-api/batch-update";

export interface Interaction {
  method: string;
  uri: string;
  contentType: string | null;
  body: string | null;
  status: number;
  response: unknown;
}

export interface Recording {
  name: string;
  interactions: Interaction[];
}

export const RECORDINGS_DIR = join(__dirname, "recordings");

export function loadRecordings(dir = RECORDINGS_DIR): Recording[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({
      name: f.replace(/\.json$/, ""),
      interactions: (JSON.parse(readFileSync(join(dir, f), "utf8")) as { interactions: Interaction[] }).interactions,
    }));
}

/**
 * Fields whose values differ from run to run at Google itself, compared for presence and type
 * only: ids Google mints (spreadsheets, files, sheets), addresses that name Google's hosts, and
 * clock readings.
 */
export const VOLATILE_FIELDS = new Set([
  "spreadsheetId",
  "id",
  "sheetId",
  "spreadsheetUrl",
  "createdTime",
  "modifiedTime",
  "etag",
]);

const SPREADSHEET_PATH = /\/(?:v4\/spreadsheets|drive\/v3\/files)\/([A-Za-z0-9_-]{20,})/;

/** The spreadsheet or file id a request names, if any. */
export const fileIdOf = (uri: string) => SPREADSHEET_PATH.exec(new URL(uri).pathname)?.[1];

/** Drive's files.create of a spreadsheet, which the replay performs through the admin API. */
export const createsSpreadsheet = (i: Interaction) =>
  i.method === "POST" &&
  new URL(i.uri).pathname === "/drive/v3/files" &&
  i.status === 200 &&
  /application\/vnd\.google-apps\.spreadsheet/.test(i.body ?? "");

/**
 * The API method of a request when the emulator serves it, else undefined (not scored). A
 * batchUpdate is served when every request in it is of a kind the emulator applies.
 */
export function servedMethod(i: Interaction): string | undefined {
  const path = new URL(i.uri).pathname;
  const routes: [string, RegExp, string][] = [
    ["GET", /^\/v4\/spreadsheets\/[^/:]+$/, "spreadsheets.get"],
    ["POST", /^\/v4\/spreadsheets\/[^/:]+:batchUpdate$/, "spreadsheets.batchUpdate"],
    ["GET", /^\/v4\/spreadsheets\/[^/:]+\/values:batchGet$/, "values.batchGet"],
    ["POST", /^\/v4\/spreadsheets\/[^/:]+\/values:batchUpdate$/, "values.batchUpdate"],
    ["POST", /^\/v4\/spreadsheets\/[^/:]+\/values:batchClear$/, "values.batchClear"],
    ["POST", /^\/v4\/spreadsheets\/[^/:]+\/values\/[^/]+:append$/, "values.append"],
    ["POST", /^\/v4\/spreadsheets\/[^/:]+\/values\/[^/]+:clear$/, "values.clear"],
    ["PUT", /^\/v4\/spreadsheets\/[^/:]+\/values\/[^/]+$/, "values.update"],
    ["GET", /^\/v4\/spreadsheets\/[^/:]+\/values\/[^/:]+$/, "values.get"],
    ["GET", /^\/drive\/v3\/files\/[^/]+$/, "files.get"],
  ];
  const route = routes.find(([method, pattern]) => method === i.method && pattern.test(path))?.[2];
  if (route !== "spreadsheets.batchUpdate") return route;
  const requests = (JSON.parse(i.body ?? "{}") as { requests?: Record<string, unknown>[] }).requests ?? [];
  return requests.every((r) => Object.keys(r).every((kind) => SERVED_BATCH_REQUESTS.includes(kind)))
    ? route
    : undefined;
}

/**
 * Differences between Google's answer and the emulator's, as `path: what` lines. Volatile fields
 * must be present with the same type; numeric sheet ids seen on both sides are learned in
 * `sheetIds` so later requests can name the emulator's.
 */
export function differences(expected: unknown, actual: unknown, sheetIds: Map<number, number>, path = ""): string[] {
  const key = path.split(".").pop() ?? "";
  if (VOLATILE_FIELDS.has(key)) {
    if (key === "sheetId" && typeof expected === "number" && typeof actual === "number") sheetIds.set(expected, actual);
    return typeof expected === typeof actual
      ? []
      : [`${path}: ${typeof expected} expected, got ${JSON.stringify(actual)}`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: array expected, got ${JSON.stringify(actual)?.slice(0, 80)}`];
    const out =
      expected.length === actual.length ? [] : [`${path}: ${expected.length} items expected, got ${actual.length}`];
    expected.forEach((e, n) => n < actual.length && out.push(...differences(e, actual[n], sheetIds, `${path}[${n}]`)));
    return out;
  }
  if (expected && typeof expected === "object") {
    if (!actual || typeof actual !== "object" || Array.isArray(actual))
      return [`${path}: object expected, got ${JSON.stringify(actual)?.slice(0, 80)}`];
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    const out: string[] = [];
    for (const k of Object.keys(e)) {
      if (!(k in a)) out.push(`${path}.${k}: missing (${JSON.stringify(e[k]).slice(0, 80)})`);
      else out.push(...differences(e[k], a[k], sheetIds, `${path}.${k}`));
    }
    for (const k of Object.keys(a))
      if (!(k in e)) out.push(`${path}.${k}: not in Google's answer (${JSON.stringify(a[k]).slice(0, 80)})`);
    return out;
  }
  return Object.is(expected, actual)
    ? []
    : [`${path}: ${JSON.stringify(expected)?.slice(0, 100)} expected, got ${JSON.stringify(actual)?.slice(0, 100)}`];
}

/** A request body with the recording's sheet ids replaced by the emulator's. */
export function withSheetIds(value: unknown, sheetIds: Map<number, number>): unknown {
  if (Array.isArray(value)) return value.map((v) => withSheetIds(v, sheetIds));
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      (k === "sheetId" || k === "newSheetId") && typeof v === "number"
        ? (sheetIds.get(v) ?? v)
        : withSheetIds(v, sheetIds),
    ]),
  );
}

/** Replaces every recorded id with the emulator's in a piece of text (a URI, a body, an answer). */
export function withFileIds(text: string, fileIds: Map<string, string>): string {
  let out = text;
  for (const [google, emulator] of fileIds) out = out.split(google).join(emulator);
  return out;
}
