// How reads can be asked for and what they say about freshness, end to end through the route
// handlers against emulators/google, on every limit store: the key as Authorization: Bearer, a
// cache bypass in the URL, cache-buster parameters ignored, CSV by Accept or by a `.csv` tab
// path (RFC 4180 quoting, formula cells defused), and Last-Modified and Age on every read.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { setLimitStore } from "@/lib/store/store";
import { rowsClient } from "@/testing/rows-client";
import { callRoute } from "@/testing/routes";
import type { TestService } from "@/testing/service";
import { serviceAndStores } from "@/testing/stores";
import { registeredKey } from "@/testing/google";

let svc: TestService;
const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
const ROWS = [
  ["id", "name", "price", "notes"],
  [1, "Desk lamp", 24.5, 'Say "hi", then\nleave'],
  [2, "Chair", 249, "@mention"],
  [3, "Mat", -12.5, "-not a number"],
];
const stores = await serviceAndStores((s) => (svc = s), { env: { CHANGE_CHECK_INTERVAL_MS: "600000" } });

describe.each(stores)("on the %s store", (storeName, makeStore) => {
  let api: ReturnType<typeof rowsClient>;
  let sheetId: string;
  const list = async (path: string, headers: Record<string, string> = {}) => {
    const mod = await import("@/app/api/v1/[sheetId]/[tabName]/route");
    const [tab, query = ""] = path.split("?");
    return callRoute(mod.GET, {
      path: `/api/v1/${sheetId}/${encodeURIComponent(tab!)}${query ? `?${query}` : ""}`,
      params: { sheetId, tabName: tab! },
      headers,
    });
  };

  beforeAll(async () => {
    setLimitStore(makeStore());
    sheetId = String(
      (
        await svc.admin("/spreadsheets", {
          title: "Carriers",
          members: { [SA]: "writer", "owner@example.com": "owner" },
          tabs: [{ title: "Items", rows: ROWS }],
        })
      ).spreadsheetId,
    );
    const user = await createUser({ email: `carriers-${storeName}-${randomUUID()}@example.com`, plan: "business" });
    api = rowsClient(sheetId, await registeredKey(user, sheetId));
  });

  it("accepts the key as Authorization: Bearer, and refuses two different keys", async () => {
    const bearer = await list("Items", { Authorization: `Bearer ${api.key}` });
    expect(bearer.status).toBe(200);
    expect(bearer.body.meta).toMatchObject({ total: 3 });
    expect((await list("Items", { Authorization: `bearer ${api.key}`, "X-API-Key": api.key })).status).toBe(200);
    const two = await list("Items", {
      Authorization: "Bearer sk_live_someotherkeyvalue000000000000",
      "X-API-Key": api.key,
    });
    expect(two.status).toBe(400);
    expect(two.body).toMatchObject({ success: false, error: "validation_error" });
    const basic = await list("Items", { Authorization: "Basic abc" });
    expect(basic.status).toBe(401);
    expect(basic.body.message).toMatch(/Bearer <key>/);
    const wrong = await list("Items", { Authorization: "Bearer nope" });
    expect(wrong).toMatchObject({ status: 401, body: { success: false, error: "unauthorized" } });
    // RFC 9110: a 401 names the scheme to authenticate with.
    for (const refused of [basic, wrong])
      expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="SheetAPI"');
    expect(two.headers.get("www-authenticate")).toBeNull();
  });

  it("ignores cache-buster parameters starting with _, and still refuses other unknown ones", async () => {
    expect((await api.list("Items", "_=1700000000000&_ts=5&limit=1")).body.meta).toMatchObject({
      total: 3,
      returned: 1,
    });
    expect((await api.get("Items", "1", "_=17")).status).toBe(200);
    const typo = await api.list("Items", "fitler=name=Chair");
    expect(typo.status).toBe(400);
    expect(typo.body.message).toMatch(/Unknown query parameter "fitler"/);
  });

  it("reads the sheet itself with ?fresh=true, as with Cache-Control: no-cache", async () => {
    await api.list("Items");
    svc.google.calls.clear();
    expect((await api.list("Items")).headers.get("x-cache")).toBe("HIT");
    expect(svc.google.calls.get("values.get") ?? 0).toBe(0);
    await svc.admin(`/spreadsheets/${sheetId}/values`, { range: "Items!B4", values: [["Yoga mat"]] });
    const fresh = await api.list("Items", "fresh=true");
    expect(fresh.headers.get("x-cache")).toBe("MISS");
    expect((fresh.body.data as { name: string }[])[2]!.name).toBe("Yoga mat");
    expect((await api.get("Items", "3", "fresh")).headers.get("x-cache")).toBe("MISS");
    expect((await api.list("Items", "fresh=maybe")).body).toMatchObject({
      error: "validation_error",
      message: 'fresh must be true or false; got "maybe".',
    });
  });

  it("answers CSV for Accept: text/csv and for Items.csv: quoted, formulas defused, numbers kept", async () => {
    // Written through the API, a formula is stored as text: a spreadsheet opening the CSV must not run it either.
    expect((await api.update("Items", "2", { notes: '=HYPERLINK("http://evil")' })).status).toBe(200);
    const accepted = await list("Items?sort=id", { "X-API-Key": api.key, Accept: "text/csv" });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
    expect(accepted.headers.get("x-total-count")).toBe("3");
    const lines = accepted.text.split("\r\n");
    expect(lines[0]).toBe("id,name,price,notes");
    expect(lines[1]).toBe('1,Desk lamp,24.5,"Say ""hi"", then\nleave"');
    expect(lines[2]).toBe(`2,Chair,249,"'=HYPERLINK(""http://evil"")"`);
    expect(lines[3]).toMatch(/^3,.*,-12.5,'-not a number$/);
    const byPath = await list("Items.csv?filter=price>0&select=name", { "X-API-Key": api.key });
    expect(byPath.text).toBe("id,name\r\n1,Desk lamp\r\n2,Chair\r\n");
    expect(byPath.headers.get("content-disposition")).toContain('filename="Items.csv"');
    // JSON stays the default, and wins a tie.
    expect((await list("Items", { "X-API-Key": api.key, Accept: "application/json, text/csv" })).body.success).toBe(
      true,
    );
    expect((await list("Items", { "X-API-Key": api.key, Accept: "*/*" })).body.success).toBe(true);
    // Errors stay in the envelope; the CSV's ETag answers 304.
    expect((await list("Nope.csv", { "X-API-Key": api.key })).body).toMatchObject({
      success: false,
      error: "not_found",
    });
    const again = await list("Items.csv?filter=price>0&select=name", {
      "X-API-Key": api.key,
      "If-None-Match": byPath.headers.get("etag")!,
    });
    expect(again.status).toBe(304);
  });

  it("serves Items.csv from the JSON reads' cached copy of Items, not a copy of its own", async () => {
    // A written tab has a data version; long after the write (past the moment requests carrying
    // an older version are still taken for the newest), a read loads the tab again.
    expect((await api.update("Items", "3", { name: "Mat" })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2100));
    expect((await list("Items?fresh=true", { "X-API-Key": api.key })).headers.get("x-cache")).toBe("MISS");
    svc.google.calls.clear();
    const csv = await list("Items.csv", { "X-API-Key": api.key });
    const json = await list("Items?limit=2", { "X-API-Key": api.key });
    expect([csv.status, csv.headers.get("x-cache"), json.status, json.headers.get("x-cache")]).toEqual([
      200,
      "HIT",
      200,
      "HIT",
    ]);
    expect((await list("Items.csv?limit=1", { "X-API-Key": api.key })).headers.get("x-cache")).toBe("HIT");
    expect(svc.google.calls.get("values.get") ?? 0).toBe(0);
  });

  it("streams every matching row as CSV by default, up to 100,000", async () => {
    const all = await list("Items.csv", { "X-API-Key": api.key });
    expect(all.text.trim().split("\r\n")).toHaveLength(4);
    expect((await list("Items.csv?limit=100001", { "X-API-Key": api.key })).body).toMatchObject({
      error: "validation_error",
      message: 'limit must be an integer from 1 to 100000; got "100001".',
    });
  });

  it("says when the rows were read (Last-Modified) and how long ago (Age), on lists, rows and the schema", async () => {
    const before = Date.now();
    const fresh = await api.list("Items", "fresh=true");
    const read = Date.parse(fresh.headers.get("last-modified")!);
    expect(read).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(fresh.headers.get("age")).toBe("0");
    await new Promise((r) => setTimeout(r, 1100));
    const cached = await api.get("Items", "1");
    expect(cached.headers.get("x-cache")).toBe("HIT");
    expect(cached.headers.get("last-modified")).toBe(fresh.headers.get("last-modified"));
    expect(Number(cached.headers.get("age"))).toBeGreaterThanOrEqual(1);
    const schema = await callRoute((await import("@/app/api/[sheetId]/schema/route")).GET, {
      path: `/api/${sheetId}/schema`,
      params: { sheetId },
      headers: { "X-API-Key": api.key },
    });
    expect(schema.headers.get("last-modified")).toMatch(/GMT$/);
    expect(schema.headers.get("age")).toMatch(/^\d+$/);
  });
});
