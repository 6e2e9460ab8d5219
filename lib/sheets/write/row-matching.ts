// Finding the rows a write by value changes: by a filter (with its `limit` and `dry_run`) or by a
// key column, each checked before anything is written (the limit, If-Match, one row per key).
import { matchesAny } from "@/lib/http/conditional";
import { ApiError, quoted } from "@/lib/errors";
import { comparableTarget, comparableValue, equalsByValue } from "@/lib/sheets/values/cell-values";
import { applyQuery, parseBoolean, parseListQuery, queryColumns } from "@/lib/sheets/read/query";
import { checkSingle } from "@/lib/http/query-params";
import { checkParams } from "@/lib/sheets/read/query-params";
import { columnValues } from "@/lib/sheets/read/tab-index";
import { rowEtag, type TabData, type TabRow } from "@/lib/sheets/values/rows";
import { displayed, type RowInput } from "./row-input";

export const MAX_ROWS_PER_WRITE = 1000;
export const bad = (message: string) => new ApiError("validation_error", message);

export interface Scope {
  rows: TabRow[];
  limit: number;
  dryRun: boolean;
  describe: string;
}

/**
 * What a filtered write's parameters say without the tab: checked before anything is read from
 * Google, so a request that can never succeed answers 400 at no cost of quota.
 */
export function checkScopeParams(params: URLSearchParams): { filter: string; or: string[]; limitText: string | null } {
  checkParams(params, ["filter", "or", "limit", "dry_run"]);
  // A second value must not win or lose in silence: `dry_run=false&dry_run=true` would delete.
  checkSingle(params, ["limit", "dry_run"]);
  const filter = params.getAll("filter").filter(Boolean).join(",");
  const or = params.getAll("or").filter(Boolean);
  if (!filter && !or.length) {
    throw bad(
      "A filter is required: PATCH and DELETE on a tab change the rows ?filter= matches (e.g. ?filter=email=ada@example.com). To change one row by its id, use /{tabName}/{rowId}.",
    );
  }
  const limitText = params.get("limit");
  if (
    limitText !== null &&
    (!/^\d+$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > MAX_ROWS_PER_WRITE)
  ) {
    throw bad(
      `limit must be an integer from 1 to ${MAX_ROWS_PER_WRITE}: the most rows this request may change; got ${quoted(limitText)}.`,
    );
  }
  parseBoolean("dry_run", params.get("dry_run"));
  return { filter, or, limitText };
}

/** `filter` (and `or`) of a filtered write, read as a list reads them; `limit` and `dry_run`. */
export function scopeOf(params: URLSearchParams, data: TabData): Scope {
  const { filter, or, limitText } = checkScopeParams(params);
  const query = parseListQuery(
    new URLSearchParams([...params].filter(([name]) => name === "filter" || name === "or")),
    queryColumns(data),
  );
  const { rows } = applyQuery(data, { ...query, limit: data.rows.length, offset: 0 });
  return {
    rows,
    limit: limitText === null ? 1 : Number(limitText),
    dryRun: parseBoolean("dry_run", params.get("dry_run")),
    describe: [filter && `filter=${filter}`, ...or.map((o) => `or=${o}`)].filter(Boolean).join("&"),
  };
}

export function checkLimit(scope: Scope): void {
  if (scope.rows.length <= scope.limit) return;
  throw new ApiError(
    "conflict",
    `${scope.rows.length} rows match ${quoted(scope.describe)}, more than limit=${scope.limit}; nothing was changed. Check them with GET and the same filter (or dry_run=true), then send limit=${Math.min(scope.rows.length, MAX_ROWS_PER_WRITE)} if they are all meant.`,
  );
}

/** With If-Match (the ETags of the client's reads), every row about to change must still be as read. */
export function checkIfMatch(data: TabData, rows: TabRow[], ifMatch: string | null | undefined): void {
  if (ifMatch === null || ifMatch === undefined) return;
  const changed = rows.find((r) => !matchesAny(ifMatch, rowEtag(data, r)));
  if (!changed) return;
  throw new ApiError(
    "precondition_failed",
    `Row ${changed.id} is not as you read it (its ETag is now ${rowEtag(data, changed)}; If-Match must list the ETag of every row the request changes); nothing was changed. Read again and retry.`,
    {},
    { ETag: rowEtag(data, changed) },
  );
}

/** Rows by the value of a key column: as displayed, and by value in number and date columns (`sku=12` finds "12.00"). */
export function keyIndex(data: TabData, key: string) {
  const at = data.columns.findIndex((c) => c.name === key);
  const column = data.columns[at] ?? { name: key, type: "number" as const };
  const byValueToo = equalsByValue(column);
  const byText = new Map<string, TabRow[]>();
  const byValue = new Map<number, TabRow[]>();
  const add = <K>(map: Map<K, TabRow[]>, k: K, row: TabRow) => map.set(k, [...(map.get(k) ?? []), row]);
  const values = columnValues(data, key);
  for (const [i, row] of data.rows.entries()) {
    const text = values.distinct[values.ids[i]!]!;
    add(byText, text, row);
    const n = byValueToo ? comparableValue(text, column, data.where, row.serials?.[at]) : undefined;
    if (n !== undefined) add(byValue, n, row);
  }
  return (value: string): TabRow[] => {
    const found = byText.get(value);
    if (found) return found;
    const n = byValueToo ? comparableTarget(value, column, data.where) : undefined;
    return n === undefined ? [] : (byValue.get(n) ?? []);
  };
}

export function keyColumn(
  params: URLSearchParams,
  name: string,
  data: TabData,
  { creates }: { creates: boolean },
): string {
  const key = params.get(name) ?? "id";
  if (!queryColumns(data).includes(key))
    throw bad(`Unknown ${name} column ${quoted(key)}. Columns: ${queryColumns(data).join(", ")}.`);
  if (creates && key === "id" && !data.hasIdColumn)
    throw bad(`The tab "${data.tab}" has no id column: upsert by one of its columns (?${name}=column).`);
  return key;
}

/** Each body row's key value, required and distinct. */
export function keysOf(rows: RowInput[], key: string): string[] {
  const seen = new Set<string>();
  return rows.map((row, i) => {
    const v = row[key];
    if (v === undefined || v === null || v === "")
      throw bad(`Row ${i + 1} of the body has no ${quoted(key)}: it is the key that finds the row.`);
    const text = displayed(v);
    if (seen.has(text))
      throw bad(`${quoted(key)} ${quoted(text)} appears twice in the body: each row is written once.`);
    seen.add(text);
    return text;
  });
}

export function uniqueMatch(
  data: TabData,
  find: (v: string) => TabRow[],
  key: string,
  value: string,
): TabRow | undefined {
  const found = find(value);
  if (found.length > 1)
    throw new ApiError(
      "conflict",
      `${found.length} rows of "${data.tab}" have ${key} ${quoted(value)} (ids ${found.map((r) => r.id).join(", ")}): a key must find one row. Nothing was changed.`,
    );
  return found[0];
}
