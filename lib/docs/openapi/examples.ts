// Examples written from the tab's own columns: the PATCH bodies, and the query strings that
// the write-by-key and aggregate descriptions show.
import type { TabModel } from "@/lib/sheets/values/tab-model";
import { exampleKeyColumn, exampleRewriteBody, exampleUpdateBody, type SheetDocs } from "../sheet-docs";
import type { Json } from "./refs";

/**
 * The PATCH bodies, the array first: it needs no query parameter (each row found by its id, the
 * default key), so a tool that sends only required parameters and the first example gets a 200;
 * the object needs `?filter=`, which such a tool leaves out.
 */
export function patchExamples(docs: SheetDocs, tab: TabModel, filter: string): Json {
  const update = exampleUpdateBody(docs, tab);
  if (!Object.keys(update).length) return {};
  return {
    examples: {
      byId: {
        summary: "Rows by id (no query parameters); here the row's own value, so nothing changes",
        value: [exampleRewriteBody(docs, tab)],
      },
      byFilter: { summary: `With ?filter=${filter}`, value: update },
    },
  };
}

/** ` (here: ...)`: a write by key using the tab's own columns. */
export function byKeyExample(tab: TabModel): string {
  const key = exampleKeyColumn(tab);
  const other = tab.columns.find((c) => c.name !== "id" && c !== key);
  if (!key || !other) return "";
  return ` Here: \`PATCH ?filter=${key.name}=…\` with \`{"${other.name}": …}\`, or \`PATCH ?key=${key.name}\` with \`[{"${key.name}": …, "${other.name}": …}]\`.`;
}

/** ` (here: ...)`: an aggregate request using the tab's own columns. */
export function aggregateExample(tab: TabModel): string {
  const group = tab.columns.find((c) => c.type === "string" || c.type === "boolean");
  const num = tab.columns.find((c) => ["number", "currency", "percent"].includes(c.type));
  if (!group || !num) return "";
  return ` (here: \`?group_by=${group.name}&aggregate=count,sum:${num.name},avg:${num.name}\`)`;
}
