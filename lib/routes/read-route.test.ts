// The static route the reads of rows are rewritten to (lib/http/read-paths.ts) answers exactly
// what the dynamic routes answer for the path the client asked at, and logs that path's route.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { log, setLogTarget } from "@/lib/log";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { registeredKey } from "@/testing/google";
import { callRoute } from "@/testing/routes";
import { startTestService, type TestService } from "@/testing/service";
import { READ_PATH_HEADER, READ_ROUTE, readRewrite } from "@/lib/http/read-paths";

let svc: TestService;
let key: string;
const sheetId = DEMO_SPREADSHEET_ID;
const readRoute = () => import("@/app/api/v1/%5Fread/route");
const listRoute = () => import("@/app/api/v1/[sheetId]/[tabName]/route");
const rowRoute = () => import("@/app/api/v1/[sheetId]/[tabName]/[rowId]/route");

beforeAll(async () => {
  svc = await startTestService();
  setLimitStore(memoryStore());
  const user = await createUser({ email: "read-route@example.com", plan: "business" });
  key = await registeredKey({ id: user.id, email: null }, sheetId);
});
afterAll(() => svc.stop());

/** The request as the hook hands it to Next.js: the static route's URL, the asked path stamped. */
async function viaReadRoute(target: string, headers: Record<string, string> = {}) {
  const rewrite = readRewrite("GET", target)!;
  expect(rewrite).toBeDefined();
  return callRoute((await readRoute()).GET, {
    path: rewrite.url,
    params: {},
    headers: { ...headers, [READ_PATH_HEADER]: rewrite.stamp },
  });
}

const comparable = (res: Awaited<ReturnType<typeof callRoute>>) => ({
  status: res.status,
  text: res.text,
  etag: res.headers.get("etag"),
  type: res.headers.get("content-type"),
  cors: res.headers.get("access-control-allow-origin"),
  limit: res.headers.get("x-ratelimit-limit"),
});

describe("the static read route", () => {
  it("answers a list, a row, a CSV list and their refusals as the dynamic routes do", async () => {
    const k = { "X-API-Key": key };
    const cases: [string, Record<string, string>, "list" | "row"][] = [
      [`/api/v1/${sheetId}/Products?limit=2&sort=price&order=desc`, { sheetId, tabName: "Products" }, "list"],
      [`/api/v1/${sheetId}/Team%20Members?limit=1`, { sheetId, tabName: "Team Members" }, "list"],
      [`/api/v1/${sheetId}/Products.csv?select=name`, { sheetId, tabName: "Products.csv" }, "list"],
      [`/api/v1/${sheetId}/Nope`, { sheetId, tabName: "Nope" }, "list"],
      [`/api/v1/${sheetId}/Products/2`, { sheetId, tabName: "Products", rowId: "2" }, "row"],
      [`/api/v1/${sheetId}/Products/999`, { sheetId, tabName: "Products", rowId: "999" }, "row"],
      [`/api/v1/${sheetId}/Products?limit=zz`, { sheetId, tabName: "Products" }, "list"],
    ];
    for (const [target, params, kind] of cases) {
      const direct = await callRoute((await (kind === "list" ? listRoute() : rowRoute())).GET, {
        path: target,
        params,
        headers: k,
      });
      const rewritten = await viaReadRoute(target, k);
      expect([target, comparable(rewritten)]).toEqual([target, comparable(direct)]);
    }
    expect((await viaReadRoute(`/api/v1/${sheetId}/Products/2`)).status).toBe(401);
  });

  it("logs the route of the path asked at", async () => {
    const lines: string[] = [];
    log.level = "info";
    setLogTarget({ write: (line: string) => lines.push(line) });
    try {
      await viaReadRoute(`/api/v1/${sheetId}/Team%20Members/3`, { "X-API-Key": key });
    } finally {
      setLogTarget(undefined);
      log.level = "silent";
    }
    const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.route);
    expect(line).toMatchObject({ route: "/api/v1/{sheetId}/{tabName}/{rowId}", status: 200, method: "GET" });
  });

  it("is no route when asked for directly, or with a stamp a client made: 404 with the key's limit headers, as any unknown path", async () => {
    const { GET, POST } = await readRoute();
    for (const headers of [{}, { [READ_PATH_HEADER]: `/api/v1/${sheetId}/Products` }] as Record<string, string>[]) {
      const res = await callRoute(GET, { path: READ_ROUTE, params: {}, headers: { ...headers, "X-API-Key": key } });
      expect([res.status, res.body]).toEqual([
        404,
        { success: false, error: "not_found", message: "No route GET /api/v1/_read. See GET /api for the routes." },
      ]);
      expect(res.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    }
    const post = await callRoute(POST, {
      method: "POST",
      path: READ_ROUTE,
      params: {},
      body: {},
      headers: { "X-API-Key": key },
    });
    expect([post.status, post.body.error]).toEqual([404, "not_found"]);
    expect(post.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
  });
});
