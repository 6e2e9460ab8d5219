// The sheet's API as an OpenAPI 3.1 document, generated from the tab model: one path per tab and
// row, per-tab row schemas, the X-API-Key scheme, the error envelope, the rate-limit headers and
// the 429 body. GET /docs/{sheetId}/openapi.json serves it; the docs page shows the same facts.
import pkg from "@/package.json";
import { tabPath, type SheetDocs } from "./sheet-docs";
import { components } from "./openapi/components";
import { tabIdentifiers, tabTags } from "./openapi/names";
import type { Json } from "./openapi/refs";
import { sheetPaths } from "./openapi/sheet-paths";
import { tabPaths } from "./openapi/tab-paths";
import { sheetWebhooks } from "./openapi/webhooks";

export function openApiDocument(docs: SheetDocs): Json {
  const ids = tabIdentifiers(docs.model.tabs);
  const tags = tabTags(docs.model.tabs);
  const ownPaths = new Set(docs.model.tabs.map((t) => tabPath(docs, t)));
  const paths: Json = {};
  for (const tab of docs.model.tabs)
    Object.assign(
      paths,
      tabPaths(tab, ids.get(tab.name)!, docs, {
        tag: tags.get(tab.name)!,
        csvPath: !ownPaths.has(`${tabPath(docs, tab)}.csv`),
      }),
    );
  Object.assign(paths, sheetPaths(docs));
  return {
    openapi: "3.1.0",
    info: {
      title: `${docs.model.title} API`,
      version: pkg.version,
      contact: { name: "This API's documentation", url: `${docs.baseUrl}/docs/${docs.sheet.id}` },
      description: `REST API of the spreadsheet "${docs.model.title}": each tab is a collection, each row an item. Every answer carries \`success\`; errors are \`{ success: false, error, message }\`. Secret keys (\`shk_\`) hold the permissions each operation names; browser (publishable) keys (\`shp_\`, the \`BrowserKey\` scheme) call only the row reads, from their listed origins. Docs: ${docs.baseUrl}/docs/${docs.sheet.id}`,
    },
    servers: [{ url: docs.baseUrl }],
    security: [{ ApiKey: [] }, { Bearer: [] }],
    tags: [
      ...docs.model.tabs.map((t) => ({ name: tags.get(t.name)!, description: `Rows of the tab "${t.name}".` })),
      { name: "Schema", description: "The sheet's tabs and columns, and refreshing them from Google." },
      { name: "Events", description: "Row and schema changes, as webhooks deliver them." },
      { name: "Usage", description: "The account's use of its plan." },
    ],
    paths,
    webhooks: sheetWebhooks(),
    components: components(docs, ids),
  };
}
