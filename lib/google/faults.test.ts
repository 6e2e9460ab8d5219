// Google failing: 429 and 5xx are retried within the budget, what still fails answers in the
// envelope within the bound, and a write is never lost silently nor made twice.
import { describe, expect, it } from "vitest";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { callRoute } from "@/testing/routes";
import { demoSheetSuite } from "@/testing/demo-sheet-suite";

const TIMEOUT_MS = 1000;
const BUDGET_MS = 1500;
const suite = demoSheetSuite("faults@example.com", {
  env: { GOOGLE_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS), GOOGLE_RETRY_BUDGET_MS: String(BUDGET_MS) },
});

const productRows = () =>
  suite.svc.google.store.get(DEMO_SPREADSHEET_ID)!.tabs[0]!.rows.filter((r) => r.some(Boolean)).length;
const timed = async <T>(work: Promise<T>) => {
  const started = Date.now();
  const result = await work;
  return { result, ms: Date.now() - started };
};

describe("reads", () => {
  it("retry a 429 and a 500 and then answer", async () => {
    suite.svc.google.faults.add({ route: "values.get", status: 429 });
    suite.svc.google.faults.add({ route: "values.get", status: 500 });
    const res = await suite.api.list("Products");
    expect(res.status).toBe(200);
    expect(suite.svc.google.calls.get("values.get")).toBe(3);
  });

  it.each([
    [500, 502, "bad_gateway"],
    [503, 503, "service_unavailable"],
    [429, 503, "service_unavailable"],
  ])("answer a lasting Google %i with %i in the envelope within the bound", async (google, status, code) => {
    suite.svc.google.faults.add({ route: "values.get", status: google as 429 | 500 | 503, count: -1 });
    const { result, ms } = await timed(suite.api.list("Products"));
    expect(result.status).toBe(status);
    expect(result.body).toMatchObject({ success: false, error: code });
    expect(result.headers.get("retry-after")).toBe("5");
    expect(ms).toBeLessThan(BUDGET_MS + TIMEOUT_MS);
    expect(suite.svc.google.calls.get("values.get")).toBeGreaterThan(1);
  });

  it("answer 504 when Google does not answer in time", async () => {
    suite.svc.google.faults.add({ route: "values.get", delayMs: TIMEOUT_MS + 500, count: -1 });
    const { result, ms } = await timed(suite.api.list("Products"));
    expect(result.status).toBe(504);
    expect(result.body).toMatchObject({ success: false, error: "gateway_timeout" });
    expect(result.headers.get("retry-after")).toBe("5");
    expect(ms).toBeLessThan(BUDGET_MS + 2 * TIMEOUT_MS);
  });
});

describe("reads that could never succeed", () => {
  const aggregateRoute = async (kind: "_aggregate" | "_distinct", query: string) => {
    const mod =
      kind === "_aggregate"
        ? await import("@/app/api/v1/[sheetId]/[tabName]/%5Faggregate/route")
        : await import("@/app/api/v1/[sheetId]/[tabName]/%5Fdistinct/route");
    return callRoute(mod.GET, {
      method: "GET",
      path: `/api/v1/${DEMO_SPREADSHEET_ID}/Products/${kind}?${query}`,
      params: { sheetId: DEMO_SPREADSHEET_ID, tabName: "Products" },
      headers: { "X-API-Key": suite.api.key },
    });
  };
  it.each([
    ["a list with limit=-4", () => suite.api.list("Products", "limit=-4"), /limit/],
    ["a CSV list with limit=-4", () => suite.api.list("Products.csv", "limit=-4"), /limit/],
    ["a list with order=up", () => suite.api.list("Products", "sort=name&order=up"), /order/],
    ["a row with typed=maybe", () => suite.api.get("Products", "1", "typed=maybe"), /typed/],
    ["an aggregate grouped by one column twice", () => aggregateRoute("_aggregate", "group_by=name,name"), /twice/],
    ["an aggregate with an unknown function", () => aggregateRoute("_aggregate", "aggregate=median:price"), /median/],
    ["_distinct without column", () => aggregateRoute("_distinct", ""), /column is required/],
  ])("answer %s with 400 while Google is failing, not with Google's failure", async (_, read, message) => {
    suite.svc.google.faults.add({ route: "values.get", status: 503, count: -1 });
    const res = await read();
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      success: false,
      error: "validation_error",
      message: expect.stringMatching(message),
    });
  });

  it("answer a write naming a column the tab's schema does not have with 400, and a valid one with Google's failure", async () => {
    suite.svc.google.faults.add({ route: "values.get", status: 503, count: -1 });
    for (const write of [
      () => suite.api.update("Products", "1", { colour: "red" }),
      () => suite.api.create("Products", [{ name: "ok" }, { colour: "red" }]),
    ]) {
      const res = await write();
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        error: "validation_error",
        message: expect.stringMatching(
          /"colour" is not a column of "Products" as its schema was last read.*Nothing was written/,
        ),
      });
    }
    expect((await suite.api.update("Products", "1", { notes: "fine" })).status).toBe(503);
  });

  it("still answer a query that may succeed with Google's failure", async () => {
    suite.svc.google.faults.add({ route: "values.get", status: 503, count: -1 });
    // Column names cannot be checked before the tab is read: an unknown one is Google's failure too.
    for (const query of ["limit=5&sort=name&order=desc", "filter=nosuchcolumn=1"])
      expect((await suite.api.list("Products", query)).status).toBe(503);
  });
});

describe("creates", () => {
  it("answer 503 with Retry-After, not an outcome-unknown 504, when the tab cannot be read before the write", async () => {
    const before = productRows();
    suite.svc.google.faults.add({ route: "values.get", delayMs: TIMEOUT_MS + 500, count: -1 });
    const res = await suite.api.create("Products", { name: "Never sent" });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      success: false,
      error: "service_unavailable",
      message: expect.stringMatching(/did not answer in time.*Nothing was written/),
    });
    expect(res.headers.get("retry-after")).toBe("5");
    expect(productRows()).toBe(before);
  });

  it("retry a 429 and write exactly once", async () => {
    const before = productRows();
    suite.svc.google.faults.add({ route: "spreadsheets.batchUpdate", status: 429 });
    const res = await suite.api.create("Products", { name: "After 429" });
    expect(res.status).toBe(201);
    expect(productRows()).toBe(before + 1);
  });

  it("settle a 500 before writing again, and write exactly once", async () => {
    const before = productRows();
    suite.svc.google.faults.add({ route: "spreadsheets.batchUpdate", status: 500 });
    const res = await suite.api.create("Products", [{ name: "After 500 a" }, { name: "After 500 b" }]);
    expect(res.status).toBe(201);
    expect(productRows()).toBe(before + 2);
    // The write, the fence that proved it cannot land, the write again.
    expect(suite.svc.google.calls.get("spreadsheets.batchUpdate")).toBe(3);
  });

  it("never write twice when the first write lands after Google stopped answering", async () => {
    const before = productRows();
    suite.svc.google.faults.add({ route: "spreadsheets.batchUpdate", delayMs: TIMEOUT_MS + 300 });
    const res = await suite.api.create("Products", { name: "Slow write" });
    expect(res.status).toBe(201);
    await new Promise((r) => setTimeout(r, 600)); // the late write has arrived, and was refused
    expect(productRows()).toBe(before + 1);
  });

  it("make the check a 504 advises hold: the row's GET settles the write first, so a 404 stays a 404", async () => {
    // The write and the service's own three fences are all held past the request timeout; the
    // write reaches the sheet 8 s after it was sent, well after the 504.
    suite.svc.google.faults.add({ route: "spreadsheets.batchUpdate", delayMs: 8_000, count: 4 });
    const sent = Date.now();
    const res = await suite.api.create("Products", { name: "Late and checked" });
    expect(res.status).toBe(504);
    const advised = /Check with GET (\/api\/v1\/\S+\/Products\/(\d+))/.exec(String(res.body.message));
    expect(advised).not.toBeNull();
    const id = advised![2]!;
    const first = await suite.api.get("Products", id);
    expect([200, 404]).toContain(first.status);
    // Once the held write has reached the sheet, the answer is the same as the check's.
    await new Promise((r) => setTimeout(r, Math.max(0, sent + 8_000 + 1_500 - Date.now())));
    const later = await suite.api.get("Products", id, "", { "Cache-Control": "no-cache" });
    expect(later.status).toBe(first.status);
  }, 30_000);

  it("spend at most four write calls on an update while Google keeps answering 429", async () => {
    suite.svc.google.faults.add({ route: "spreadsheets.batchUpdate", status: 429, count: -1 });
    const res = await suite.api.update("Products", "2", { name: "Rate limited" });
    expect(res.status).toBe(504);
    // The write, then three fences: no fence is retried in place as well.
    expect(suite.svc.google.calls.get("spreadsheets.batchUpdate")).toBe(4);
    // Google answers again: the next write settles that one, then goes out.
    suite.svc.google.faults.clear();
    expect((await suite.api.update("Products", "2", { name: "Answered" })).status).toBe(200);
  });

  it("leave the sheet unchanged when Google keeps failing, and say the outcome is unknown and how to check", async () => {
    const before = JSON.stringify(suite.svc.google.store.get(DEMO_SPREADSHEET_ID)!.tabs[0]);
    suite.svc.google.faults.add({ route: "spreadsheets.batchUpdate", status: 500, count: -1 });
    const res = await suite.api.create(
      "Products",
      Array.from({ length: 20 }, (_, i) => ({ name: `Bulk ${i}` })),
    );
    expect(res.status).toBe(504);
    expect(res.body).toMatchObject({ success: false, error: "gateway_timeout" });
    expect(String(res.body.message)).toMatch(/outcome is unknown.*Check with GET \/api\/v1\/.+\/Products\/\d+/);
    expect(JSON.stringify(suite.svc.google.store.get(DEMO_SPREADSHEET_ID)!.tabs[0])).toBe(before);
  });
});

describe("deletes", () => {
  it("settle a 500 before deleting again, and delete exactly the row", async () => {
    suite.svc.google.faults.add({ route: "spreadsheets.batchUpdate", status: 500 });
    const res = await suite.api.remove("Products", "3");
    expect(res.status).toBe(200);
    const ids = ((await suite.api.list("Products")).body.data as { id: string }[]).map((r) => r.id);
    expect(ids).not.toContain("3");
    expect(ids).toContain("2");
    expect(ids).toContain("4");
  });
});
