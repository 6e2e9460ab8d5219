// The sheet's OpenAPI document against the running service through Prism's validating proxy
// (`prism proxy --errors`): any request or answer of a realistic session it does not describe fails.
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { copyNewKey, registerSheet } from "../support/dashboard";
import { copySpreadsheet } from "../support/emulator-admin";
import { E2E } from "../support/env";
import { signIn } from "../support/google-consent";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Prism in front of the service; resolves once it answers. Its output is kept for the report. */
async function startPrism(documentFile: string, output: string[]): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    join(process.cwd(), "node_modules/.bin/prism"),
    ["proxy", documentFile, E2E.baseUrl, "--errors", "--host", "127.0.0.1", "--port", String(port)],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout!.on("data", (d) => output.push(String(d)));
  child.stderr!.on("data", (d) => output.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    if (child.exitCode !== null) throw new Error(`prism exited: ${output.join("")}`);
    if (output.join("").includes("Prism is listening")) return { url, process: child };
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill();
  throw new Error(`prism did not start: ${output.join("")}`);
}

interface Step {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  status: number;
}

test("a realistic session through Prism's validating proxy shows zero violations", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const sheetId = await copySpreadsheet(E2E.demoSheetId);
  await signIn(page, "prism@example.com");
  const key = await registerSheet(page, sheetId); // all four permissions; Free Trial (5 a minute)
  // A second key of the sheet for 403s: Read only.
  const readOnlyKey = await (async () => {
    await page.goto(`/dashboard/sheets/${sheetId}`);
    await page.getByTestId("key-name").fill("read only");
    for (const p of ["read", "write", "schema", "analytics"])
      await page.getByTestId(`new-key-${p}`).setChecked(p === "read");
    await page.getByTestId("create-key").click();
    const dialog = page.getByRole("dialog", { name: "Your new API key" });
    const value = await copyNewKey(dialog);
    await dialog.getByTestId("close-key-dialog").click();
    return value;
  })();

  const document = await (await request.get(`/docs/${sheetId}/openapi.json`)).json();
  const file = testInfo.outputPath("openapi.json");
  writeFileSync(file, JSON.stringify(document));
  const output: string[] = [];
  const prism = await startPrism(file, output);
  try {
    const rows = `/api/v1/${sheetId}/Products`;
    const members = `/api/v1/${sheetId}/Team%20Members`;
    const orders = `/api/v1/${sheetId}/Orders`;
    const json = { "Content-Type": "application/json" };
    const k = { "X-API-Key": key };
    const send = (ctx: APIRequestContext, s: Step) =>
      ctx.fetch(`${prism.url}${s.path}`, {
        method: s.method,
        headers: { ...s.headers },
        data: s.body === undefined ? undefined : JSON.stringify(s.body),
        maxRedirects: 0,
      });
    const check = async (s: Step) => {
      const res = await send(request, s);
      const text = await res.text();
      const violations = res.headers()["sl-violations"];
      expect
        .soft(res.headers()["content-type"] ?? "", `${s.name}: Prism reported a violation: ${text}`)
        .not.toContain("problem+json");
      expect.soft(violations, `${s.name}: ${violations}`).toBeUndefined();
      expect.soft(res.status(), `${s.name}: ${text.slice(0, 300)}`).toBe(s.status);
      return {
        res,
        body: text && (res.headers()["content-type"] ?? "").includes("json") ? JSON.parse(text) : undefined,
      };
    };

    // Each burst of the Free Trial plan (5 a minute) is spent on purpose: the session runs on
    // Business, then goes back to Free Trial for the 429 at the end.
    await page.goto("/dashboard/usage");
    await page.getByTestId("plan-select").selectOption("business");
    await page.getByTestId("plan-submit").click();
    await expect(page.getByTestId("plan-name")).toHaveText("Business");

    await check({ name: "list", method: "GET", path: rows, headers: k, status: 200 });
    await check({
      name: "list with filters, sort and paging",
      method: "GET",
      path: `${rows}?filter=${encodeURIComponent("in_stock=TRUE,price>=20")}&sort=price&order=desc&limit=2&offset=1`,
      headers: k,
      status: 200,
    });
    await check({ name: "list typed", method: "GET", path: `${rows}?typed=true`, headers: k, status: 200 });
    await check({
      name: "list typed, no id column",
      method: "GET",
      path: `${members}?typed=true`,
      headers: k,
      status: 200,
    });
    await check({
      name: "list typed, percent and datetime",
      method: "GET",
      path: `${orders}?typed=true`,
      headers: k,
      status: 200,
    });
    await check({
      name: "list with select",
      method: "GET",
      path: `${rows}?select=name,price`,
      headers: k,
      status: 200,
    });
    await check({
      name: "list with a bearer key, fresh",
      method: "GET",
      path: `${rows}?fresh=true`,
      headers: { Authorization: `Bearer ${key}` },
      status: 200,
    });
    await check({
      name: "list with or, ~= and two sort keys",
      method: "GET",
      path: `${rows}?filter=${encodeURIComponent("name~=*e*")}&or=${encodeURIComponent("price<30,in_stock=FALSE")}&sort=in_stock,price&order=asc,desc`,
      headers: k,
      status: 200,
    });
    await check({
      name: "aggregate",
      method: "GET",
      path: `${rows}/_aggregate?group_by=in_stock&aggregate=${encodeURIComponent("count,sum:price,avg:rating")}&typed=true`,
      headers: k,
      status: 200,
    });
    await check({
      name: "distinct",
      method: "GET",
      path: `${rows}/_distinct?column=in_stock`,
      headers: k,
      status: 200,
    });
    await check({
      name: "list as CSV",
      method: "GET",
      path: `${rows}.csv?select=name,price&filter=${encodeURIComponent("price>=20")}`,
      headers: k,
      status: 200,
    });
    await check({
      name: "list typed with select",
      method: "GET",
      path: `${members}?select=name&typed=true`,
      headers: k,
      status: 200,
    });
    const got = await check({ name: "get", method: "GET", path: `${rows}/1`, headers: k, status: 200 });
    const etag = got.res.headers()["etag"]!;
    await check({ name: "get typed", method: "GET", path: `${rows}/3?typed=true`, headers: k, status: 200 });
    await check({ name: "get with select", method: "GET", path: `${rows}/1?select=name`, headers: k, status: 200 });
    await check({
      name: "get 304",
      method: "GET",
      path: `${rows}/1`,
      headers: { ...k, "If-None-Match": etag },
      status: 304,
    });
    const listed = await check({ name: "list again", method: "GET", path: rows, headers: k, status: 200 });
    await check({
      name: "list 304",
      method: "GET",
      path: rows,
      headers: { ...k, "If-None-Match": listed.res.headers()["etag"]! },
      status: 304,
    });

    const one = await check({
      name: "create one",
      method: "POST",
      path: rows,
      headers: { ...k, ...json, "Idempotency-Key": "prism-create-one" },
      body: { name: "Prism lamp", price: 12.5, in_stock: true },
      status: 201,
    });
    await check({
      name: "create one, replayed",
      method: "POST",
      path: rows,
      headers: { ...k, ...json, "Idempotency-Key": "prism-create-one" },
      body: { name: "Prism lamp", price: 12.5, in_stock: true },
      status: 201,
    });
    await check({
      name: "create many",
      method: "POST",
      path: rows,
      headers: { ...k, ...json },
      body: [{ name: "Prism shelf" }, { name: "Prism hook", notes: null }],
      status: 201,
    });
    await check({
      name: "create in a tab without ids",
      method: "POST",
      path: members,
      headers: { ...k, ...json },
      body: { name: "Prism member", active: false },
      status: 201,
    });
    const id = String(one.body.data.rows[0].id);
    // A date column holds any text; typed reads answer it as text, which the document allows.
    const odd = await check({
      name: "create with text in a date column",
      method: "POST",
      path: rows,
      headers: { ...k, ...json },
      body: { name: "Prism odd date", released: "soon" },
      status: 201,
    });
    await check({
      name: "get typed, text in a date column",
      method: "GET",
      path: `${rows}/${odd.body.data.rows[0].id}?typed=true`,
      headers: k,
      status: 200,
    });
    await check({
      name: "update (PUT)",
      method: "PUT",
      path: `${rows}/${id}`,
      headers: { ...k, ...json },
      body: { price: 15, in_stock: false },
      status: 200,
    });
    await check({
      name: "update sending the row's own id back",
      method: "PUT",
      path: `${rows}/${id}`,
      headers: { ...k, ...json },
      body: { id, notes: "own id" },
      status: 200,
    });
    const read = await check({
      name: "get after update",
      method: "GET",
      path: `${rows}/${id}`,
      headers: k,
      status: 200,
    });
    const before = read.res.headers()["etag"]!;
    await check({
      name: "update (PATCH) with If-Match",
      method: "PATCH",
      path: `${rows}/${id}`,
      headers: { ...k, ...json, "If-Match": before },
      body: { notes: "patched" },
      status: 200,
    });
    await check({
      name: "update, 412",
      method: "PUT",
      path: `${rows}/${id}`,
      headers: { ...k, ...json, "If-Match": before },
      body: { notes: "stale" },
      status: 412,
    });
    await check({
      name: "delete, 412",
      method: "DELETE",
      path: `${rows}/${id}`,
      headers: { ...k, "If-Match": before },
      status: 412,
    });
    await check({ name: "delete", method: "DELETE", path: `${rows}/${id}`, headers: k, status: 200 });
    await check({
      name: "upsert",
      method: "POST",
      path: `${rows}?upsert=name`,
      headers: { ...k, ...json },
      body: [
        { name: "Prism shelf", price: 7 },
        { name: "Prism rail", price: 9 },
      ],
      status: 201,
    });
    await check({
      name: "upsert, all updates",
      method: "POST",
      path: `${rows}?upsert=name`,
      headers: { ...k, ...json },
      body: { name: "Prism rail", notes: "again" },
      status: 200,
    });
    const dry = await check({
      name: "filtered update, dry run",
      method: "PATCH",
      path: `${rows}?filter=${encodeURIComponent("name~=prism*")}&limit=5&dry_run=true`,
      headers: { ...k, ...json },
      body: { notes: "bulk" },
      status: 200,
    });
    await check({
      name: "filtered update with If-Match",
      method: "PATCH",
      path: `${rows}?filter=${encodeURIComponent("name~=prism*")}&limit=5`,
      headers: { ...k, ...json, "If-Match": dry.body.data.etags.join(", ") },
      body: { notes: "bulk" },
      status: 200,
    });
    await check({
      name: "bulk update by key",
      method: "PATCH",
      path: `${rows}?key=name`,
      headers: { ...k, ...json },
      body: [
        { name: "Prism shelf", price: 8 },
        { name: "Prism rail", price: 10 },
      ],
      status: 200,
    });
    await check({
      name: "filtered delete, over the limit",
      method: "DELETE",
      path: `${rows}?filter=${encodeURIComponent("name~=prism*")}`,
      headers: k,
      status: 409,
    });
    await check({
      name: "filtered delete",
      method: "DELETE",
      path: `${rows}?filter=${encodeURIComponent("name~=prism*")}&limit=10`,
      headers: k,
      status: 200,
    });
    await check({
      name: "filtered update without a filter",
      method: "PATCH",
      path: rows,
      headers: { ...k, ...json },
      body: { notes: "x" },
      status: 400,
    });

    await check({ name: "schema", method: "GET", path: `/api/${sheetId}/schema`, headers: k, status: 200 });
    await check({
      name: "refresh-schema",
      method: "POST",
      path: `/api/${sheetId}/refresh-schema`,
      headers: k,
      status: 200,
    });
    await check({ name: "usage", method: "GET", path: "/billing/usage", headers: k, status: 200 });

    await check({
      name: "400 unknown filter column",
      method: "GET",
      path: `${rows}?filter=color%3Dred`,
      headers: k,
      status: 400,
    });
    await check({
      name: "400 unknown sort column",
      method: "GET",
      path: `${rows}?sort=color`,
      headers: k,
      status: 400,
    });
    await check({
      name: "400 unknown select column",
      method: "GET",
      path: `${rows}/1?select=color`,
      headers: k,
      status: 400,
    });
    await check({
      name: "400 unreadable filter",
      method: "GET",
      path: `${rows}?filter=price`,
      headers: k,
      status: 400,
    });
    await check({
      name: "401 invalid key",
      method: "GET",
      path: rows,
      headers: { "X-API-Key": "shk_0000000000000000000000000000000000000P" },
      status: 401,
    });
    await check({
      name: "401 invalid key on usage",
      method: "GET",
      path: "/billing/usage",
      headers: { "X-API-Key": "shk_0000000000000000000000000000000000000P" },
      status: 401,
    });
    await check({
      name: "403 write without Write",
      method: "POST",
      path: rows,
      headers: { "X-API-Key": readOnlyKey, ...json },
      body: { name: "nope" },
      status: 403,
    });
    await check({
      name: "403 schema without Schema",
      method: "GET",
      path: `/api/${sheetId}/schema`,
      headers: { "X-API-Key": readOnlyKey },
      status: 403,
    });
    await check({
      name: "403 usage without Analytics",
      method: "GET",
      path: "/billing/usage",
      headers: { "X-API-Key": readOnlyKey },
      status: 403,
    });
    await check({ name: "404 row", method: "GET", path: `${rows}/999999`, headers: k, status: 404 });
    await check({
      name: "404 row to update",
      method: "PUT",
      path: `${rows}/999999`,
      headers: { ...k, ...json },
      body: { notes: "x" },
      status: 404,
    });
    await check({
      name: "409 existing id",
      method: "POST",
      path: rows,
      headers: { ...k, ...json },
      body: { id: "1", name: "dup" },
      status: 409,
    });

    await page.goto("/dashboard/usage");
    await page.getByTestId("plan-select").selectOption("free_trial");
    await page.getByTestId("plan-submit").click();
    await expect(page.getByTestId("plan-name")).toHaveText("Free Trial");
    let limited = false;
    for (let i = 0; i < 8 && !limited; i++) {
      const res = await send(request, {
        name: "burst",
        method: "GET",
        path: `${rows}?limit=1`,
        headers: k,
        status: 200,
      });
      limited = res.status() === 429;
      if (!limited) expect.soft(res.headers()["sl-violations"]).toBeUndefined();
    }
    expect(limited).toBe(true);
    await check({ name: "429", method: "GET", path: `${rows}/1`, headers: k, status: 429 });
    await check({ name: "usage past the limit", method: "GET", path: "/billing/usage", headers: k, status: 200 });
  } finally {
    prism.process.kill();
  }
  const log = output.join("");
  testInfo.attachments.push({ name: "prism.log", contentType: "text/plain", body: Buffer.from(log) });
  expect(log).not.toMatch(/\bviolation/i);
});
