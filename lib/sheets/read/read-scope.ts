// What a browser key may read: the tabs and columns its owner chose. A tab outside the list does
// not exist for the key (404, and error messages name only the tabs it can read); a column
// outside the list is removed from the tab before any query runs, so it can appear in no row,
// CSV, aggregate or distinct answer, and a filter, sort, select or group_by naming it is refused
// as an unknown column (400), as if it did not exist. (Its name is no secret: the public docs
// page lists every column; its values are.) `id` always stays: it is the row's identifier, which
// every answer carries.
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
