// Ids of new rows (DECISIONS 4): given ones checked against the tab, missing ones from the tab's
// counter, which hands each id out once, across instances and restarts.
import { ApiError } from "@/lib/errors";
import { getLimitStore, writesPaused } from "@/lib/store/store";
import type { TabData } from "@/lib/sheets/values/rows";
import type { TabModel } from "@/lib/sheets/values/tab-model";
import { idMark, raiseIdMark } from "@/db/queries/id-marks";
import { errorFields, log } from "@/lib/log";
import type { RowInput } from "./row-input";
import type { WriteSheet } from "./write-request";

/**
 * Ids are counted per tab by its gid, which stays when the owner renames the tab: a renamed tab
 * goes on from its ids. The earlier release counted by the tab's name: that counter, while the
 * store holds it, is read as a floor too (db/queries/id-marks.ts keeps both marks).
 */
export const idCounterKey = (sheetId: string, gid: number) => `sheetapi:ids:${sheetId}:gid:${gid}`;
const namedCounterKey = (sheetId: string, tab: string) => `sheetapi:ids:${sheetId}:${tab}`;
// The counter may expire: the tab's mark in the database is the floor it starts again from.
const ID_COUNTER_TTL_SECONDS = 30 * 24 * 3600;

/**
 * An id written as a number: a plain integer (no sign, no leading zero) of at most 15 digits,
 * which Google Sheets holds and shows exactly (it keeps 15 significant digits). Any other id is
 * written as text, exactly as given: "02" written as a number would show as "2", another row's
 * id, and 1234567890123456 would come back rounded, naming no row. The tab's id counter counts
 * these ids only: a longer digit string is an id like "A-12", kept as text and never counted.
 */
export const NUMERIC_ID = /^(0|[1-9]\d{0,14})$/;

function maxIntegerId(ids: Iterable<string>): number {
  let max = 0;
  for (const id of ids) if (NUMERIC_ID.test(id)) max = Math.max(max, Number(id));
  return max;
}

/**
 * The last of `count` new ids above `floor` and every id the tab ever handed out. The limit
 * store's counter hands them out (atomic across instances, and there while the database is
 * down); the tab's mark in the database keeps the highest one durably, and is the counter's
 * floor, so a counter lost (a flushed Redis, an expiry, a restart) never hands an id out again.
 * A write fails (503) without the store; without the database it goes on from the counter alone.
 */
export async function nextIds(
  sheetId: string,
  tab: Pick<TabModel, "gid" | "name">,
  floor: number,
  count: number,
): Promise<number> {
  const store = getLimitStore();
  const key = idCounterKey(sheetId, tab.gid);
  const [mark, [counted, countedByName]] = await Promise.all([
    idMark(sheetId, tab).then(
      (n) => ({ n }),
      (err: unknown) => ({ err }),
    ),
    store.mget<number>([key, namedCounterKey(sheetId, tab.name)]).catch(() => [null, null]),
  ]);
  if ("err" in mark) {
    // Without the mark, only a counter the store still holds knows every id handed out.
    if (counted === null) throw writesPaused("new ids cannot be assigned while the database is unreachable");
    log.warn(
      { sheet: sheetId, tab: tab.name, ...errorFields(mark.err) },
      "ids: the tab's mark could not be read; the store's counter goes on alone",
    );
  }
  const marked = "n" in mark ? mark.n : 0;
  let last: number;
  try {
    last = await store.allocate(
      key,
      Math.max(floor, marked, Number(countedByName ?? 0)),
      count,
      ID_COUNTER_TTL_SECONDS,
    );
  } catch {
    throw writesPaused("ids cannot be assigned while the coordination store is unreachable");
  }
  await raiseIdMark(sheetId, tab, last).catch((err: unknown) =>
    log.warn({ sheet: sheetId, tab: tab.name, last, ...errorFields(err) }, "ids: the tab's mark could not be raised"),
  );
  return last;
}

/** Ids that name a route under the tab, not a row: `/{tabName}/_distinct` is the distinct values. */
const RESERVED_IDS = new Set(["_aggregate", "_distinct"]);

/** Ids for new rows: given ones checked against the sheet, missing ones from the tab's counter (nextIds). */
export async function assignIds(
  sheet: WriteSheet,
  model: TabModel,
  data: TabData,
  rows: RowInput[],
): Promise<string[]> {
  const taken = new Set(data.rows.map((r) => r.id));
  const given = new Map<string, number>();
  const missing: number[] = [];
  const ids = rows.map((row, i) => {
    const id = row.id === null || row.id === undefined ? "" : String(row.id);
    if (id === "") {
      missing.push(i);
      return "";
    }
    if (RESERVED_IDS.has(id))
      throw new ApiError(
        "validation_error",
        `Row ${i + 1}: the id "${id}" is taken by the route /{tabName}/${id}, so such a row could not be reached by its id: choose another.`,
      );
    if (taken.has(id)) throw new ApiError("conflict", `A row with id "${id}" already exists in "${data.tab}".`);
    if (given.has(id))
      throw new ApiError(
        "conflict",
        `Rows ${given.get(id)! + 1} and ${i + 1} of this request both have id "${id}": each row needs its own id.`,
      );
    given.set(id, i);
    return id;
  });
  // The counter also learns of given integer ids, so an id once held is never handed out again.
  const floor = Math.max(maxIntegerId(taken), maxIntegerId(given.keys()));
  const last = await nextIds(sheet.id, model, floor, missing.length);
  missing.forEach((rowIndex, k) => (ids[rowIndex] = String(last - missing.length + 1 + k)));
  return ids;
}

/**
 * A retry with the Idempotency-Key of a create that did not land: its rows get the ids the
 * earlier answer named ("Check with GET .../13" must find the row the retry writes), where no
 * row has taken them since.
 */
export function withEarlierIds(rows: RowInput[], data: TabData, earlierAnswer: unknown): RowInput[] {
  const earlier = (earlierAnswer as { rows?: { id?: unknown }[] } | undefined)?.rows;
  if (!Array.isArray(earlier) || earlier.length !== rows.length) return rows;
  const taken = new Set(data.rows.map((r) => r.id));
  return rows.map((row, i) => {
    const id = earlier[i]?.id;
    const free = (typeof id === "string" || typeof id === "number") && !taken.has(String(id));
    return (row.id === null || row.id === undefined) && free ? { ...row, id: String(id) } : row;
  });
}
