// What a browser key may read: the tabs and columns its owner chose. Columns outside the list are
// removed before any query runs, so no answer can carry their values (README.md).
import type { TabData } from "@/lib/sheets/values/rows";
import { reshapeRows } from "@/lib/sheets/values/tab-columns";

export interface ReadScope {
  /** Absent: every tab. */
  tabs?: readonly string[];
  /** Absent: every column. */
  columns?: readonly string[];
}

export function tabInScope(scope: ReadScope | undefined, tab: string): boolean {
  return !scope?.tabs || scope.tabs.includes(tab);
}

// One view per cached copy and column list, kept as long as the copy: the query indexes built on
// a view (lib/sheets/read/tab-index.ts) then last as long as they do for the full tab.
const views = new WeakMap<TabData, Map<string, TabData>>();

/** The tab's data as the key may see it: only the listed columns (and `id`). */
export function scopedData(data: TabData, scope: ReadScope | undefined): TabData {
  const allowed = scope?.columns;
  if (!allowed) return data;
  const keep = data.columns.flatMap((c, i) => (c.name === "id" || allowed.includes(c.name) ? [i] : []));
  if (keep.length === data.columns.length) return data;
  let byList = views.get(data);
  if (!byList) views.set(data, (byList = new Map()));
  const listKey = keep.join(",");
  let view = byList.get(listKey);
  if (!view) {
    view = {
      ...data,
      columns: keep.map((i) => data.columns[i]!),
      rows: reshapeRows(data.rows, { keep }),
    };
    byList.set(listKey, view);
  }
  return view;
}
