// What one query may make an instance do, so that no request holds its one thread for others:
// limits read from the query alone (pattern length, stars, conditions) and a work budget read
// with the tab (characters `~` and `~=` read, values decided, rows visited). Each refusal is a
// 400 naming its limit; reads decide in slices, giving the event loop back between them.
import { ApiError } from "@/lib/errors";
import { likeSegments } from "@/lib/sheets/values/like";
import type { TabData } from "@/lib/sheets/values/rows";
import { decisions, decisionsInSlices, decisionWork, type Decided } from "./filter-decisions";
import type { Condition, Operator } from "./tab-index";

export const MAX_PATTERN_CHARS = 1_000;
export const MAX_STARS = 32;
export const MAX_CONDITIONS = 100;
/** A few hundred ms of CPU at worst (bench/filter-worst.ts), given back to others in slices. */
export const WORK_BUDGET = 50_000_000;
/** Work decided between two turns of the event loop: 20-50 ms at worst (bench/filter-worst.ts). */
export const SLICE_UNITS = 2_000_000;

const bad = (message: string) => new ApiError("validation_error", message);
const count = (n: number) => n.toLocaleString("en-US");

/** `~` and `~=` values: at most MAX_PATTERN_CHARS characters, and `~=` at most MAX_STARS stars. */
export function checkPattern(op: Operator, values: string[]): void {
  if (op !== "~" && op !== "~=") return;
  for (const value of values) {
    if (value.length > MAX_PATTERN_CHARS)
      throw bad(
        `A ${op} pattern may be up to ${count(MAX_PATTERN_CHARS)} characters (the pattern length limit); one has ${count(value.length)}.`,
      );
    if (op !== "~=") continue;
    const stars = likeSegments(value).length - 1;
    if (stars > MAX_STARS)
      throw bad(`A ~= pattern may hold up to ${MAX_STARS} * wildcards (the wildcard limit); one has ${count(stars)}.`);
  }
}

export function checkConditionCount(conditions: number): void {
  if (conditions > MAX_CONDITIONS)
    throw bad(
      `A query may hold up to ${MAX_CONDITIONS} conditions, filter and or together (the condition limit); this one has ${count(conditions)}.`,
    );
}

/** The work units the conditions cost on this copy: deciding those not kept, and a unit per row each. */
export function queryWork(data: TabData, conditions: Condition[]): number {
  return conditions.reduce((n, c) => n + decisionWork(data, c) + data.rows.length, 0);
}

export function checkWork(data: TabData, conditions: Condition[]): void {
  const work = queryWork(data, conditions);
  if (work <= WORK_BUDGET) return;
  throw bad(
    `This filter would read about ${count(work)} characters and rows of the tab, over the work budget of ${count(WORK_BUDGET)} per request: ` +
      "each ~ and ~= pattern (each alternative of one) reads the whole column. Use fewer or shorter patterns, or = and range conditions.",
  );
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** The decisions of every condition of the query, checked against the budget, decided in slices. */
export async function decideAll(data: TabData, conditions: Condition[]): Promise<Map<Condition, Decided>> {
  checkWork(data, conditions);
  const decided = new Map<Condition, Decided>();
  const pacer = { units: 0, slice: SLICE_UNITS, pause: turn };
  for (const c of conditions) {
    decided.set(c, await decisionsInSlices(data, c, pacer));
    // The rows each condition reads after (a byte each) count toward the next turn too.
    pacer.units += data.rows.length;
  }
  return decided;
}

/** The decisions of a condition: decided before (by decideAll) or now. */
export const decidedOf = (data: TabData, decided: Map<Condition, Decided> | undefined) => (c: Condition) =>
  decided?.get(c) ?? decisions(data, c);
