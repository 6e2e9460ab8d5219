// The quick start of one sheet: its first tab with columns, its real address and column names.
import { exampleCreateBody, tabPath, type SheetDocs } from "@/lib/docs/sheet-docs";
import { QuickStart } from "../quick-start";
import { writesAllowed } from "@/lib/sheets/access/access-lapse";

export function SheetQuickStart({ docs }: { docs: SheetDocs }) {
  // A tab without a header row has nothing to create; the reference sections pick the same tab.
  const tab = docs.model.tabs.find((t) => t.columns.length > 0);
  const url = tab && `${docs.baseUrl}${tabPath(docs, tab)}`;
  return (
    <QuickStart
      keysHref={`/dashboard/sheets/${docs.sheet.id}#api-keys`}
      keysDocHref="#keys"
      tab={tab?.name}
      read={url ? { method: "GET", url: `${url}?limit=5` } : undefined}
      create={
        url && tab && writesAllowed(docs.sheet)
          ? { method: "POST", url, body: exampleCreateBody(docs, tab) }
          : undefined
      }
      noCreate={
        writesAllowed(docs.sheet)
          ? "Once a tab has column names in row 1, its example shows here."
          : "This sheet is read-only: creates answer 403 until its owner makes it writable."
      }
    />
  );
}
