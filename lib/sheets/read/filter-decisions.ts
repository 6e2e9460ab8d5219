// Filter decisions: per distinct value of a condition's column, whether a cell holding it matches,
// kept with the tab's copy. What deciding costs is known before it starts (a unit per distinct
// value, and for `~` and `~=` per character and per part between stars, once per pattern), so a request can be refused
// before the work, and a read decides in slices that give the event loop back between them.
import { comparableTarget, equalsByValue } from "@/lib/sheets/values/cell-values";
import { likePattern, likeSegments } from "@/lib/sheets/values/like";
import { finder } from "@/lib/sheets/values/text-search";
import type { TabData } from "@/lib/sheets/values/rows";
import { columnIndex, comparer, inRange, type ColumnIndex, type Condition, type RangeOp } from "./tab-index";

export interface Decided {
  ids: Uint16Array | Uint32Array;
  match: Uint8Array;
}

/** Decisions kept per column: many for a column of few values, one for a column of 100,000. */
const decisionsKept = (c: ColumnIndex) =>
  Math.min(64, Math.max(1, Math.floor(0x40000 / Math.max(1, c.distinct.length))));
// JSON, not joined text: a value holding the separator must not share a list's decisions.
const keyOf = (condition: Condition) => JSON.stringify([condition.op, condition.values]);
const textual = (condition: Condition) => condition.op === "~" || condition.op === "~=";

function keep(c: ColumnIndex, condition: Condition, match: Uint8Array): Decided {
  if (c.decisions.size >= decisionsKept(c)) c.decisions.delete(c.decisions.keys().next().value!);
  c.decisions.set(keyOf(condition), match);
  return { ids: c.ids, match };
}

/** The characters of a column's distinct values, counted once per copy. */
const charsOf = (c: ColumnIndex) => (c.chars ??= c.distinct.reduce((n, v) => n + v.length, 0));

/** The work units deciding a condition costs; 0 when its decisions are kept. */
export function decisionWork(data: TabData, condition: Condition): number {
  const c = columnIndex(data, condition.column);
  if (c.decisions.has(keyOf(condition))) return 0;
  const valueChars = condition.values.reduce((n, v) => n + v.length, 0);
  if (!textual(condition)) return c.distinct.length * PER_VALUE + valueChars;
  return condition.values.reduce((n, v) => n + charsOf(c) + c.distinct.length * perValue(condition.op, v), valueChars);
}

/** Units a test of one value costs besides the characters it reads (a call costs about 8 of those). */
const PER_VALUE = 8;
/** Per value and pattern: a test, and one per part between stars of a `~=` pattern. */
const perValue = (op: Condition["op"], value: string) => PER_VALUE * (op === "~=" ? likeSegments(value).length : 1);

/** Whether the distinct value `d` matches; `folded(d)` is its case-folded text. */
function testerOf(
  data: TabData,
  c: ColumnIndex,
  { op, values }: Condition,
  folded: (d: number) => string,
): (d: number) => boolean {
  switch (op) {
    case "=":
    case "!=": {
      // As displayed, or for numbers and dates by value: price=24.5 matches "24,50 €".
      const wanted = new Set(values);
      const byValue = new Set(
        equalsByValue(c.column)
          ? values.map((v) => comparableTarget(v, c.column, data.where)).filter((n) => n !== undefined)
          : [],
      );
      return (d) =>
        (wanted.has(c.distinct[d]!) || (!Number.isNaN(c.numbers[d]!) && byValue.has(c.numbers[d]!))) === (op === "=");
    }
    case "~": {
      const find = finder(values[0]!.toLowerCase());
      return (d) => find(folded(d)) >= 0;
    }
    case "~=": {
      const patterns = values.map(likePattern);
      return (d) => {
        const text = folded(d);
        return patterns.some((p) => p.testFolded(text));
      };
    }
    default: {
      // An empty cell has no order.
      const compare = comparer(c, values[0]!, comparableTarget(values[0]!, c.column, data.where));
      return (d) => c.distinct[d]! !== "" && inRange(op as RangeOp, compare(d));
    }
  }
}

/** The column's folded values, built as they are asked for and kept once complete. */
function folding(c: ColumnIndex, condition: Condition): { folded: (d: number) => string; done: () => void } {
  if (c.folded || !textual(condition))
    return { folded: (d) => c.folded?.[d] ?? c.distinct[d]!.toLowerCase(), done: () => {} };
  const folded: string[] = new Array(c.distinct.length);
  return { folded: (d) => (folded[d] = c.distinct[d]!.toLowerCase()), done: () => void (c.folded ??= folded) };
}

/** Per distinct value of the condition's column: 1 when a cell holding it matches. */
export function decisions(data: TabData, condition: Condition): Decided {
  const c = columnIndex(data, condition.column);
  const kept = c.decisions.get(keyOf(condition));
  if (kept) return { ids: c.ids, match: kept };
  const { folded, done } = folding(c, condition);
  const test = testerOf(data, c, condition, folded);
  const match = new Uint8Array(c.distinct.length);
  for (let d = 0; d < match.length; d++) match[d] = test(d) ? 1 : 0;
  done();
  return keep(c, condition, match);
}

/** Work done since the last pause, shared by the conditions of one request. */
export interface Pacer {
  units: number;
  slice: number;
  pause: () => Promise<unknown>;
}

/** The same, awaiting `pacer.pause()` each time about `pacer.slice` work units were done. */
export async function decisionsInSlices(data: TabData, condition: Condition, pacer: Pacer): Promise<Decided> {
  const c = columnIndex(data, condition.column);
  const kept = c.decisions.get(keyOf(condition));
  if (kept) return { ids: c.ids, match: kept };
  const { folded, done } = folding(c, condition);
  // A `~=` list tests its patterns one at a time: one long cell against many of them is long work.
  const parts = condition.op === "~=" ? condition.values.map((v) => ({ ...condition, values: [v] })) : [condition];
  const tests = parts.map((part) => testerOf(data, c, part, folded));
  const perDistinct = parts.map((part) => (textual(part) ? perValue(part.op, part.values[0]!) : PER_VALUE));
  const perChar = textual(condition) ? 1 : 0;
  const match = new Uint8Array(c.distinct.length);
  for (let d = 0; d < match.length; d++) {
    for (let t = 0; t < tests.length && !match[d]; t++) {
      match[d] = tests[t]!(d) ? 1 : 0;
      pacer.units += perDistinct[t]! + perChar * c.distinct[d]!.length;
      if (pacer.units >= pacer.slice) {
        pacer.units = 0;
        await pacer.pause();
      }
    }
  }
  done();
  return keep(c, condition, match);
}
