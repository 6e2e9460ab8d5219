// The OpenAPI document of the demo sheet passes a real validator, describes every tab and column
// from the live schema, and follows a schema change once the schema is refreshed.
import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { DEMO_SPREADSHEET_ID, PRIVATE_SPREADSHEET_ID } from "@/emulators/google/seed";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { startTestService, type TestService } from "@/testing/service";
import { openApiDocument } from "./openapi";
import { tabIdentifiers } from "./openapi/names";
import { loadSheetDocs } from "./sheet-docs";
import { proveAccessWithGoogle } from "@/testing/google";

let svc: TestService;
let apiKey: string;

beforeAll(async () => {
  svc = await startTestService();
  setLimitStore(memoryStore());
  const { registerSheet } = await import("@/lib/sheets/registration/registration");
  const user = await createUser({ email: "docs@example.com", plan: "business" });
  await proveAccessWithGoogle(user, [DEMO_SPREADSHEET_ID]);
  apiKey = (await registerSheet({ userId: user.id, sheetUrl: DEMO_SPREADSHEET_ID })).apiKey!;
});
afterAll(async () => {
  setLimitStore(undefined);
  await svc.stop();
});

type Doc = {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; examples?: unknown[] }> };
};
type Operation = { responses: Record<string, unknown>; parameters?: unknown[] };
type PathItem = Record<"get" | "post" | "put" | "patch" | "delete", Operation>;
type FullDoc = {
  tags: { name: string; description?: string }[];
  paths: Record<string, PathItem>;
  components: { schemas: Record<string, { required?: string[]; properties?: Record<string, unknown> }> } & Record<
    string,
    unknown
  >;
};
type Param = { $ref?: string; name: string; in: string; required?: boolean; example?: unknown };
/** A parameter as written in the operation, or the shared one it refers to. */
const resolve = (doc: { components: { parameters: Record<string, Param> } }, p: Param) =>
  p.$ref ? doc.components.parameters[p.$ref.split("/").at(-1)!]! : p;
const documentOf = async (id: string = DEMO_SPREADSHEET_ID) =>
  openApiDocument((await loadSheetDocs(id))!) as unknown as Doc;

describe("OpenAPI document", () => {
  it("passes the validator with zero errors", async () => {
    const doc = await documentOf();
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it("has every tab's row paths and a schema per tab with its columns", async () => {
    const doc = await documentOf();
    const base = `/api/v1/${DEMO_SPREADSHEET_ID}`;
    for (const tab of ["Products", "Team%20Members", "Orders"]) {
      expect(Object.keys(doc.paths[`${base}/${tab}`]!)).toEqual(["get", "post", "patch", "delete"]);
      expect(Object.keys(doc.paths[`${base}/${tab}/{rowId}`]!)).toEqual([
        "parameters",
        "get",
        "put",
        "patch",
        "delete",
      ]);
    }
    expect(Object.keys(doc.components.schemas.Products_Row!.properties!)).toEqual([
      "id",
      "name",
      "price",
      "in_stock",
      "released",
      "rating",
      "notes",
    ]);
    // A tab without an id column still answers an id (the row number); it cannot be written.
    expect(doc.components.schemas.Team_Members_Row!.properties).toHaveProperty("id");
    expect(doc.components.schemas.Team_Members_RowInput!.properties).not.toHaveProperty("id");
    expect(doc.components.schemas.Products_RowPatch!.properties).not.toHaveProperty("id");
    // PUT takes the row's own id back (a row read and sent whole), and says any other is refused.
    expect(doc.components.schemas.Products_RowUpdate!.properties!.id).toMatchObject({
      description: expect.stringContaining("id cannot change"),
    });
    expect(doc.components.schemas.Products_RowUpdate).toMatchObject({ not: { required: ["id"], maxProperties: 1 } });
    expect(doc.paths[`${base}/Products/{rowId}`]!.put).toMatchObject({
      requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Products_RowUpdate" } } } },
    });
    expect(doc.paths[`/api/${DEMO_SPREADSHEET_ID}/schema`]).toBeDefined();
    expect(doc.paths["/billing/usage"]).toBeDefined();
  });

  it("describes browser keys: a scheme of their own, listed on the row reads only", async () => {
    const doc = (await documentOf()) as unknown as FullDoc & {
      components: { securitySchemes: Record<string, { description?: string }> };
    };
    expect(doc.components.securitySchemes.BrowserKey!.description).toMatch(
      /shp_.*Access-Control-Allow-Origin.*403.*per-minute/s,
    );
    const base = `/api/v1/${DEMO_SPREADSHEET_ID}/Products`;
    const security = (op: unknown) => JSON.stringify((op as { security?: unknown }).security ?? null);
    for (const path of [base, `${base}.csv`, `${base}/_aggregate`, `${base}/_distinct`, `${base}/{rowId}`])
      expect(security(doc.paths[path]!.get), path).toMatch(/BrowserKey/);
    for (const op of [
      doc.paths[base]!.post,
      doc.paths[base]!.patch,
      doc.paths[`${base}/{rowId}`]!.put,
      doc.paths[`/api/${DEMO_SPREADSHEET_ID}/schema`]!.get,
    ])
      expect(security(op)).not.toMatch(/BrowserKey/);
  });

  it("marks as required the query parameters a route refuses to go without", async () => {
    const doc = (await documentOf()) as unknown as FullDoc & {
      components: { parameters: Record<string, { name: string; required?: boolean }> };
    };
    const base = `/api/v1/${DEMO_SPREADSHEET_ID}/Products`;
    const required = (op: unknown) =>
      ((op as { parameters: { $ref?: string; name: string; required?: boolean }[] }).parameters ?? [])
        .map((p) => (p.$ref ? doc.components.parameters[p.$ref.split("/").at(-1)!]! : p))
        .filter((p) => p.required)
        .map((p) => p.name);
    expect(required(doc.paths[`${base}/_distinct`]!.get)).toEqual(["column"]);
    expect(required(doc.paths[base]!.delete)).toEqual(["filter"]);
    // A PATCH with an array body finds its rows by key, without a filter.
    expect(required(doc.paths[base]!.patch)).toEqual([]);
  });

  it("holds as a contract: each read of a tab answers 200 to its required parameters alone, and 400 without one", async () => {
    const doc = (await documentOf()) as unknown as FullDoc & {
      components: { parameters: Record<string, { name: string; in: string; required?: boolean }> };
    };
    const { callRoute } = await import("@/testing/routes");
    const routes = {
      list: await import("@/app/api/v1/[sheetId]/[tabName]/route"),
      row: await import("@/app/api/v1/[sheetId]/[tabName]/[rowId]/route"),
      distinct: await import("@/app/api/v1/[sheetId]/[tabName]/%5Fdistinct/route"),
      aggregate: await import("@/app/api/v1/[sheetId]/[tabName]/%5Faggregate/route"),
    };
    const base = `/api/v1/${DEMO_SPREADSHEET_ID}/Products`;
    // What a generated suite (Portman, Prism) sends for each required query parameter.
    const values: Record<string, string> = { column: "name", filter: "price>0" };
    const cases: { path: string; route: { GET: unknown }; params: Record<string, string> }[] = [
      { path: base, route: routes.list, params: { tabName: "Products" } },
      { path: `${base}.csv`, route: routes.list, params: { tabName: "Products.csv" } },
      { path: `${base}/_distinct`, route: routes.distinct, params: { tabName: "Products" } },
      { path: `${base}/_aggregate`, route: routes.aggregate, params: { tabName: "Products" } },
      { path: `${base}/{rowId}`, route: routes.row, params: { tabName: "Products", rowId: "1" } },
    ];
    for (const { path, route, params } of cases) {
      const operation = doc.paths[path]!.get as unknown as {
        parameters: { $ref?: string; name: string; in: string; required?: boolean }[];
      };
      const required = operation.parameters
        .map((p) => (p.$ref ? doc.components.parameters[p.$ref.split("/").at(-1)!]! : p))
        .filter((p) => p.required && p.in === "query")
        .map((p) => p.name);
      const ask = (names: string[]) => {
        const query = new URLSearchParams(names.map((n) => [n, values[n]!])).toString();
        const url = `${path.replace("{rowId}", "1")}${query ? `?${query}` : ""}`;
        return callRoute(route.GET, {
          path: url,
          params: { sheetId: DEMO_SPREADSHEET_ID, ...params },
          headers: { "X-API-Key": apiKey },
        });
      };
      expect((await ask(required)).status, path).toBe(200);
      for (const name of required)
        expect((await ask(required.filter((n) => n !== name))).body, `${path} without ${name}`).toMatchObject({
          success: false,
          error: "validation_error",
        });
    }
  });

  it("shows the sheet's own values only when anyone with the link can read it", async () => {
    // The demo sheet is viewable by anyone with the link.
    const demo = await documentOf();
    expect(demo.components.schemas.Products_Row!.examples![0]).toMatchObject({
      id: "1",
      name: "Desk lamp",
      price: "$24.50",
    });
    // Example bodies send numbers as numbers, so the sheet stores a number, not text.
    expect(demo.components.schemas.Products_RowInput!.examples![0]).toMatchObject({
      name: "Desk lamp (new)",
      price: 24.5,
    });
    // An update example never renames a row into another row's name: it changes another column.
    expect(Object.keys(demo.components.schemas.Products_RowPatch!.examples![0] as object)).not.toContain("name");
    const { registerSheet } = await import("@/lib/sheets/registration/registration");
    const owner = await createUser({ email: "owner@example.com" });
    await svc.admin(
      `/spreadsheets/${PRIVATE_SPREADSHEET_ID}/access`,
      { members: { "sheetapi-local@sheetapi-local.iam.gserviceaccount.com": "reader" } },
      "PATCH",
    );
    await proveAccessWithGoogle(owner, [PRIVATE_SPREADSHEET_ID]);
    await registerSheet({ userId: owner.id, sheetUrl: PRIVATE_SPREADSHEET_ID });
    const privateDoc = await documentOf(PRIVATE_SPREADSHEET_ID);
    const example = Object.entries(privateDoc.components.schemas).find(([name]) => name.endsWith("_Row"))![1]
      .examples![0] as Record<string, string>;
    for (const value of Object.values(example))
      expect(["1", "2", "text", "42", "TRUE", "2024-01-31", "2024-01-31 09:30:00", "$24.50", "15%"]).toContain(value);
  });

  it("follows a schema change after refresh-schema", async () => {
    await svc.admin(`/spreadsheets/${DEMO_SPREADSHEET_ID}/values`, { range: "'Products'!H1", values: [["supplier"]] });
    await svc.admin(`/spreadsheets/${DEMO_SPREADSHEET_ID}/tabs`, {
      title: "Suppliers",
      rows: [
        ["id", "company"],
        [1, "Acme"],
      ],
    });
    expect((await documentOf()).components.schemas.Products_Row!.properties).not.toHaveProperty("supplier");
    const { getSheet } = await import("@/db/queries/sheets");
    const { toSheetRecord } = await import("@/lib/sheets/sheet-record");
    const { refreshSheetModel } = await import("@/lib/sheets/read/schema");
    await refreshSheetModel(toSheetRecord((await getSheet({ id: DEMO_SPREADSHEET_ID }))!));
    const doc = await documentOf();
    expect(doc.components.schemas.Products_Row!.properties).toHaveProperty("supplier");
    expect(doc.paths[`/api/v1/${DEMO_SPREADSHEET_ID}/Suppliers`]).toBeDefined();
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it("describes typed answers, select subsets, conditional requests and idempotent creates", async () => {
    const doc = (await documentOf()) as unknown as FullDoc;
    const schemas = doc.components.schemas;
    // select returns a subset: only id is always there.
    expect(schemas.Products_Row!.required).toEqual(["id"]);
    expect(schemas.Products_TypedRow!.required).toEqual(["id"]);
    expect(schemas.Products_TypedRow!.properties!.price).toMatchObject({ type: ["number", "string", "null"] });
    expect(schemas.Products_TypedRow!.properties!.in_stock).toMatchObject({ type: ["boolean", "string", "null"] });
    // Text in a date column comes back as text: no `format` that would make a validator refuse it.
    expect(schemas.Products_TypedRow!.properties!.released).toMatchObject({
      type: ["string", "null"],
      description: expect.stringContaining("YYYY-MM-DD"),
    });
    expect(schemas.Products_TypedRow!.properties!.released).not.toHaveProperty("format");
    expect(schemas.Orders_TypedRow!.properties!.placed_at).toMatchObject({
      type: ["string", "null"],
      description: expect.stringContaining("date-time"),
    });
    expect(schemas.Orders_TypedRow!.properties!.placed_at).not.toHaveProperty("format");
    expect(schemas.Team_Members_TypedRow!.properties!.id).toMatchObject({ type: "integer" });
    const item = doc.paths[`/api/v1/${DEMO_SPREADSHEET_ID}/Products/{rowId}`]!;
    const list = doc.paths[`/api/v1/${DEMO_SPREADSHEET_ID}/Products`]!;
    expect(Object.keys(item.get.responses)).toEqual(expect.arrayContaining(["200", "304"]));
    expect(Object.keys(list.get.responses)).toEqual(expect.arrayContaining(["200", "304"]));
    for (const op of [item.put, item.patch, item.delete]) expect(Object.keys(op.responses)).toContain("412");
    expect(JSON.stringify(item.get.responses["200"])).toContain("#/components/headers/ETag");
    expect(JSON.stringify(list.get.responses["200"])).toContain("#/components/headers/X-Cache");
    expect(JSON.stringify(list.post.responses["201"])).toContain("#/components/headers/Idempotent-Replayed");
    expect(JSON.stringify(list.post.parameters)).toContain("#/components/parameters/Idempotency-Key");
    expect(JSON.stringify(item.put.parameters)).toContain("#/components/parameters/If-Match");
    expect(JSON.stringify(item.get.parameters)).toContain("#/components/parameters/If-None-Match");
    expect(Object.keys(doc.paths["/billing/usage"]!.get.responses)).toContain("429");
  });

  it("uses every component it declares and describes every tag", async () => {
    const doc = (await documentOf()) as unknown as FullDoc;
    const refs = new Set(
      [...JSON.stringify({ ...doc, components: undefined }).matchAll(/"#\/components\/(\w+)\/([^"]+)"/g)].map(
        (m) => `${m[1]}/${m[2]}`,
      ),
    );
    // Components referenced only from other components count once their referrer is used.
    for (let grew = true; grew; ) {
      grew = false;
      for (const r of [...refs]) {
        const [kind, name] = r.split("/") as [string, string];
        for (const m of JSON.stringify(
          (doc.components as Record<string, Record<string, unknown>>)[kind]?.[name] ?? {},
        ).matchAll(/"#\/components\/(\w+)\/([^"]+)"/g)) {
          if (refs.has(`${m[1]}/${m[2]}`)) continue;
          refs.add(`${m[1]}/${m[2]}`);
          grew = true;
        }
      }
    }
    const declared = Object.entries(doc.components)
      .filter(([kind]) => kind !== "securitySchemes")
      .flatMap(([kind, all]) => Object.keys(all as object).map((name) => `${kind}/${name}`));
    expect(declared.filter((d) => !refs.has(d))).toEqual([]);
    expect([...refs].filter((r) => !declared.includes(r))).toEqual([]);
    for (const tag of doc.tags) expect(tag.description, tag.name).toBeTruthy();
  });

  it("names tab schemas uniquely whatever the tab names, as code generators see them", () => {
    const tabs = [
      "Team Members",
      "Team-Members",
      "team_members",
      "TeamMembers",
      "2024",
      "2024!",
      "Ünïcode",
      "!!!",
      "Schema",
      "usage",
    ].map((name) => ({ name, gid: 0, columns: [], hasIdColumn: false }));
    expect([...tabIdentifiers(tabs).values()]).toEqual([
      "Team_Members",
      "Team_Members_2",
      "team_members_3",
      "TeamMembers_4",
      "Tab_2024",
      "Tab_2024_2",
      "Unicode",
      "Tab",
      "Schema_2",
      "usage_2",
    ]);
    // One tab's operation or schema must not read as another's: deleteMany_Orders / delete_Many_Orders, A_TypedRow / A_Typed_Row.
    const more = ["Orders", "Many Orders", "A", "A Typed"].map((name) => ({
      name,
      gid: 0,
      columns: [],
      hasIdColumn: false,
    }));
    expect([...tabIdentifiers(more).values()]).toEqual(["Orders", "Many_Orders_2", "A", "A_Typed_2"]);
  });

  it("keeps tags, operation ids and paths unique whatever the tabs are called", async () => {
    const demo = (await loadSheetDocs(DEMO_SPREADSHEET_ID))!;
    const tab = (name: string) => ({
      name,
      gid: 0,
      columns: [{ name: "title", index: 0, type: "string" as const }],
      hasIdColumn: false,
    });
    const names = ["Schema", "Events", "usage", "Products", "Products.csv", "products", "Orders", "Many Orders"];
    const doc = openApiDocument({
      ...demo,
      model: { ...demo.model, tabs: names.map(tab) },
      examples: new Map(),
    }) as unknown as FullDoc;
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    const tags = doc.tags.map((t) => t.name);
    expect(new Set(tags).size).toBe(tags.length);
    expect(new Set(tags.map((t) => t.toLowerCase())).size).toBe(tags.length);
    expect(tags).toEqual(expect.arrayContaining(["Schema", "Schema (tab)", "Events (tab)", "usage (tab)"]));
    // Generators camel-case the ids: `get_Schema` would become the sheet's own `getSchema`.
    const camel = (id: string) => id.replace(/_+([a-z0-9])/gi, (_, c: string) => c.toUpperCase());
    const ids = Object.values(doc.paths).flatMap((item) =>
      Object.values(item)
        .map((op) => (op as { operationId?: string }).operationId)
        .filter((id): id is string => Boolean(id)),
    );
    expect(new Set(ids.map(camel)).size).toBe(ids.length);
    // The tab "Products.csv" is served at its own path, so Products' CSV alias is left out there.
    const base = `/api/v1/${DEMO_SPREADSHEET_ID}`;
    expect(Object.keys(doc.paths[`${base}/Products.csv`]!)).toEqual(["get", "post", "patch", "delete"]);
    expect((doc.paths[`${base}/Products.csv`]!.get as unknown as { operationId: string }).operationId).toBe(
      "list_Products_csv",
    );
    expect((doc.paths[`${base}/Products`]!.get as unknown as { description: string }).description).toContain(
      "`Accept: text/csv`",
    );
    expect(doc.paths[`${base}/Products.csv.csv`]).toBeDefined();
  });

  it("describes what webhook endpoints receive, test events included", async () => {
    const doc = (await documentOf()) as unknown as {
      webhooks: Record<string, { post: { requestBody: unknown; parameters: { name: string }[] } }>;
    };
    const post = doc.webhooks.sheetChange!.post;
    expect(post.parameters.map((p) => p.name)).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
    expect(JSON.stringify(post.requestBody)).toContain("webhook.test");
    expect(JSON.stringify(post.requestBody)).toContain("#/components/schemas/EventData");
  });

  it("lets an array PATCH name each row by the default key, id, on a tab without an id column", async () => {
    const doc = (await documentOf()) as unknown as FullDoc;
    const items = JSON.stringify(doc.paths[`/api/v1/${DEMO_SPREADSHEET_ID}/Team%20Members`]!.patch);
    expect(items).toContain("#/components/schemas/Team_Members_RowByKey");
    expect(doc.components.schemas.Team_Members_RowByKey!.properties).toHaveProperty("id");
    expect(doc.components.schemas.Products_RowByKey!.properties!.id).toEqual(
      doc.components.schemas.Products_RowInput!.properties!.id,
    );
  });

  it("gives every required parameter an example", async () => {
    const doc = (await documentOf()) as unknown as {
      paths: Record<string, Record<string, unknown>>;
      webhooks: Record<string, Record<string, unknown>>;
      components: { parameters: Record<string, Param> };
    };
    const missing: string[] = [];
    for (const [path, item] of [...Object.entries(doc.paths), ...Object.entries(doc.webhooks)]) {
      const shared = (item.parameters as Param[] | undefined) ?? [];
      for (const [method, op] of Object.entries(item)) {
        if (method === "parameters") continue;
        for (const p of [...shared, ...((op as { parameters?: Param[] }).parameters ?? [])].map((p) =>
          resolve(doc, p),
        )) {
          if (p.required && p.example === undefined) missing.push(`${method} ${path} ${p.name}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("gives examples the API takes: a real column, and a write filter it parses that finds the row the create example made", async () => {
    const doc = (await documentOf()) as unknown as FullDoc & { components: { parameters: Record<string, Param> } };
    const docs = (await loadSheetDocs(DEMO_SPREADSHEET_ID))!;
    const { parseListQuery } = await import("@/lib/sheets/read/query");
    const { tabPath } = await import("./sheet-docs");
    const { callRoute } = await import("@/testing/routes");
    const list = await import("@/app/api/v1/[sheetId]/[tabName]/route");
    const distinct = await import("@/app/api/v1/[sheetId]/[tabName]/%5Fdistinct/route");
    const ids = tabIdentifiers(docs.model.tabs);
    const exampleOf = (op: unknown, name: string) =>
      (op as { parameters: Param[] }).parameters.map((p) => resolve(doc, p)).find((p) => p.name === name)!
        .example as string;
    for (const tab of docs.model.tabs) {
      const base = tabPath(docs, tab);
      const params = { sheetId: DEMO_SPREADSHEET_ID, tabName: tab.name };
      const call = (handler: unknown, method: string, query: Record<string, string>, body?: unknown) =>
        callRoute(handler, {
          method,
          path: `${base}?${new URLSearchParams(query)}`,
          params,
          headers: { "X-API-Key": apiKey },
          body,
        });
      const item = doc.paths[base]!;
      const column = exampleOf(doc.paths[`${base}/_distinct`]!.get, "column");
      const patchFilter = exampleOf(item.patch, "filter");
      const deleteFilter = exampleOf(item.delete, "filter");
      const columns = [...(tab.hasIdColumn ? [] : ["id"]), ...tab.columns.map((c) => c.name)];
      expect(columns, tab.name).toContain(column);
      for (const filter of [patchFilter, deleteFilter])
        expect(() => parseListQuery(new URLSearchParams({ filter }), columns), filter).not.toThrow();
      expect(
        (
          await callRoute(distinct.GET, {
            path: `${base}/_distinct?column=${encodeURIComponent(column)}`,
            params,
            headers: { "X-API-Key": apiKey },
          })
        ).status,
        `${tab.name} distinct`,
      ).toBe(200);

      // As a contract tool runs them, in document order: create, PATCH by filter, PATCH by id, DELETE by
      // filter (which finds the row as the PATCH example left it: on Suppliers, its key is what changed).
      const before = (await call(list.GET, "GET", {})).body;
      const createBody = (doc.components.schemas[`${ids.get(tab.name)}_RowInput`] as { examples: unknown[] })
        .examples[0];
      expect((await call(list.POST, "POST", {}, createBody)).status, `${tab.name} create`).toBe(201);
      const patchExamples = (
        item.patch as unknown as {
          requestBody: { content: { "application/json": { examples: Record<string, { value: unknown }> } } };
        }
      ).requestBody.content["application/json"].examples;
      // The first example needs no query parameter: a tool that sends only the required ones sends that.
      expect(Object.keys(patchExamples)[0]).toBe("byId");
      expect(
        (await call(list.PATCH, "PATCH", { filter: patchFilter }, patchExamples.byFilter!.value)).body,
        `${tab.name} patch by filter`,
      ).toMatchObject({ success: true, data: { matched: 1, updated: 1 } });
      expect(
        (await call(list.PATCH, "PATCH", {}, patchExamples.byId!.value)).body,
        `${tab.name} patch by id`,
      ).toMatchObject({ success: true, data: { matched: 1 } });
      expect(
        (await call(list.DELETE, "DELETE", { filter: deleteFilter })).body,
        `${tab.name} delete by filter`,
      ).toMatchObject({ success: true, data: { matched: 1, deleted: 1 } });
      // The run left the sheet's own rows as they were.
      expect((await call(list.GET, "GET", { fresh: "true" })).body.data, tab.name).toEqual(before.data);
    }
  });

  it("declares the shapes a read answers with and without typed=true", async () => {
    const doc = (await documentOf()) as unknown as FullDoc;
    const { callRoute } = await import("@/testing/routes");
    const list = await import("@/app/api/v1/[sheetId]/[tabName]/route");
    type Schema = { properties?: Record<string, unknown> };
    const typeOf = (v: unknown) => (v === null ? "null" : Number.isInteger(v) ? "integer" : typeof v);
    const admits = (schema: { properties?: Record<string, unknown> }, row: Record<string, unknown>) =>
      Object.entries(row).every(([name, v]) => {
        const types = [(schema.properties![name] as { type: string | string[] }).type].flat();
        return types.includes(typeOf(v)) || (typeOf(v) === "integer" && types.includes("number"));
      });
    const items = (
      doc.paths[`/api/v1/${DEMO_SPREADSHEET_ID}/Products`]!.get.responses["200"] as {
        content: { "application/json": { schema: { properties: { data: { items: { anyOf: { $ref: string }[] } } } } } };
      }
    ).content["application/json"].schema.properties.data.items;
    const [plain, typed] = items.anyOf.map((r) => doc.components.schemas[r.$ref.split("/").at(-1)!]!) as [
      Schema,
      Schema,
    ];
    expect(items.anyOf.map((r) => r.$ref)).toEqual([
      "#/components/schemas/Products_Row",
      "#/components/schemas/Products_TypedRow",
    ]);
    const read = async (query: string) =>
      (
        (
          await callRoute(list.GET, {
            path: `/api/v1/${DEMO_SPREADSHEET_ID}/Products${query}`,
            params: { sheetId: DEMO_SPREADSHEET_ID, tabName: "Products" },
            headers: { "X-API-Key": apiKey },
          })
        ).body as { data: Record<string, unknown>[] }
      ).data;
    const typedRows = await read("?typed=true");
    expect(typedRows[0]).toMatchObject({ price: 24.5, in_stock: true });
    for (const row of typedRows) expect(admits(typed, row), JSON.stringify(row)).toBe(true);
    // The display-string shape alone would refuse them: a client typed from it would be wrong.
    expect(typedRows.some((row) => !admits(plain, row))).toBe(true);
    for (const row of await read("")) expect(admits(plain, row), JSON.stringify(row)).toBe(true);
  });
});
