// The OpenAPI document of the demo sheet passes a real validator, and a client generated from it
// (openapi-typescript types + openapi-fetch) type-checks and creates, reads, updates and deletes
// a row against `next start` with emulators/google.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { expect, test } from "@playwright/test";
import openapiTS, { astToString } from "openapi-typescript";
import { choosePlan, registerSheet } from "../support/dashboard";
import { copySpreadsheet } from "../support/emulator-admin";
import { E2E } from "../support/env";
import { signIn } from "../support/google-consent";

// What the generated client does; tsc checks it against the generated types before it runs. Its
// three expected-error lines fail the check if the types let an unknown column or a bad path through.
const clientSource = (sheetId: string) => `
import createClient from "openapi-fetch";
import type { components, paths } from "./sheet-api";

const client = createClient<paths>({ baseUrl: process.env.BASE_URL!, headers: { "X-API-Key": process.env.API_KEY! } });
const rows = "/api/v1/${sheetId}/Products" as const;
const row = "/api/v1/${sheetId}/Products/{rowId}" as const;

// @ts-expect-error "color" is not a column of Products
const unknownColumn: components["schemas"]["Products_RowInput"] = { name: "x", color: "red" };
void unknownColumn;
// @ts-expect-error a cell takes a string, number, boolean or null, not an object
void client.POST(rows, { body: { name: { nested: true } } });
// @ts-expect-error no such tab
void client.GET("/api/v1/${sheetId}/NoSuchTab");

const created = await client.POST(rows, { body: { name: "Typed client lamp", price: 12.5, in_stock: true } });
if (!created.data) throw new Error("create failed: " + JSON.stringify(created.error));
const id: string = created.data.data.rows[0]!.id;
const read = await client.GET(row, { params: { path: { rowId: id } } });
const updated = await client.PUT(row, { params: { path: { rowId: id } }, body: { price: 15 } });
const listed = await client.GET(rows, { params: { query: { filter: "name=Typed client lamp", limit: 5 } } });
const removed = await client.DELETE(row, { params: { path: { rowId: id } } });
const gone = await client.GET(row, { params: { path: { rowId: id } } });
console.log(JSON.stringify({
  created: created.response.status, id,
  read: read.data?.data.name, updated: updated.data?.data.price,
  listed: listed.data?.meta.total, removed: removed.response.status,
  gone: gone.response.status, goneError: gone.error,
}));
`;

test("a typed client generated from the OpenAPI document does create, read, update and delete", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const sheetId = await copySpreadsheet(E2E.demoSheetId);
  await signIn(page, "typed-client@example.com");
  const key = await registerSheet(page, sheetId);
  await choosePlan(page, "starter", "Starter"); // the client makes six requests: more than Free Trial's 5 a minute

  const document = await (await request.get(`/docs/${sheetId}/openapi.json`)).json();
  await SwaggerParser.validate(structuredClone(document)); // throws on any error

  const dir = testInfo.outputPath("client");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "sheet-api.ts"), astToString(await openapiTS(document)));
  writeFileSync(join(dir, "client.ts"), clientSource(sheetId));
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "es2022",
        module: "esnext",
        moduleResolution: "bundler",
        skipLibCheck: true,
        types: ["node"],
      },
      files: ["client.ts", "sheet-api.ts"],
    }),
  );
  execFileSync(join(process.cwd(), "node_modules/.bin/tsc"), ["-p", join(dir, "tsconfig.json")], { stdio: "pipe" });

  const out = execFileSync(join(process.cwd(), "node_modules/.bin/tsx"), [join(dir, "client.ts")], {
    env: { ...process.env, BASE_URL: E2E.baseUrl, API_KEY: key },
    encoding: "utf8",
  });
  const result = JSON.parse(out.trim().split("\n").at(-1)!);
  expect(result).toMatchObject({
    created: 201,
    read: "Typed client lamp",
    updated: "$15.00",
    listed: 1,
    removed: 200,
    gone: 404,
    goneError: { success: false, error: "not_found" },
  });
  expect(result.id).toMatch(/^\d+$/);
});
