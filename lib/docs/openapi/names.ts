// Tab names as the document's identifiers: schema and operation names, and tags, each unique
// as code generators see them once camel-cased.
import type { TabModel } from "@/lib/sheets/values/tab-model";

// The sheet-level tags, operations and shared schemas; a tab's must never be taken for one of them.
const FIXED_TAGS = ["Schema", "Events", "Usage"];
const SHEET_OPERATIONS = ["getSchema", "refreshSchema", "listEvents", "getUsage", "receiveSheetChange"];
const SHARED_SCHEMAS = ["Error", "RateLimitError", "AggregateGroup", "AggregateMeta", "Meta", "EventData"];
// Each tab's operation ids are `{verb}_{id}` and its schemas `{id}_{suffix}` (tabPaths, rowSchemas).
const TAB_OPERATIONS = [
  "list",
  "get",
  "create",
  "update",
  "patch",
  "delete",
  "updateMany",
  "deleteMany",
  "csv",
  "aggregate",
  "distinct",
];
const TAB_SCHEMAS = ["Row", "TypedRow", "RowInput", "RowPatch", "RowUpdate", "RowByKey"];

/** A name as code generators see it: they camel-case ids, so case and `_` do not tell names apart. */
const asGenerated = (name: string) => name.replace(/_/g, "").toLowerCase();

/**
 * Schema names for tabs: letters, digits and `_`, unique within the sheet as code generators
 * see them: no operation id or schema name of one tab may read as another's or as a sheet-level
 * one once camel-cased (`list_team_members` and `list_TeamMembers` are both `listTeamMembers`,
 * `deleteMany_Orders` and `delete_Many_Orders` both `deleteManyOrders`, `get_Schema` is `getSchema`).
 */
export function tabIdentifiers(tabs: TabModel[]): Map<string, string> {
  const used = new Set([...SHEET_OPERATIONS, ...SHARED_SCHEMAS].map(asGenerated));
  const namesOf = (id: string) =>
    [...TAB_OPERATIONS.map((verb) => `${verb}_${id}`), ...TAB_SCHEMAS.map((suffix) => `${id}_${suffix}`)].map(
      asGenerated,
    );
  const out = new Map<string, string>();
  for (const tab of tabs) {
    const base =
      tab.name
        .normalize("NFKD")
        .replace(/[\u0300-\u036f]/g, "")
        .replace(/[^A-Za-z0-9]+/g, "_")
        .replace(/^_+|_+$/g, "") || "Tab";
    const first = /^[0-9]/.test(base) ? `Tab_${base}` : base;
    let name = first;
    for (let n = 2; namesOf(name).some((x) => used.has(x)); n++) name = `${first}_${n}`;
    for (const x of namesOf(name)) used.add(x);
    out.set(tab.name, name);
  }
  return out;
}

/**
 * Each tab's tag: its name, unless that reads as a sheet-level tag or an earlier tab's once case
 * and `_` are set aside (tag names must be unique, and generators name classes after them).
 */
export function tabTags(tabs: TabModel[]): Map<string, string> {
  const used = new Set(FIXED_TAGS.map(asGenerated));
  return new Map(
    tabs.map((t) => {
      let tag = t.name;
      for (let n = 1; used.has(asGenerated(tag)); n++) tag = n === 1 ? `${t.name} (tab)` : `${t.name} (tab ${n})`;
      used.add(asGenerated(tag));
      return [t.name, tag];
    }),
  );
}
