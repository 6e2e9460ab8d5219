// One JSON log line per request with its id, route template, sheet, key prefix, status and
// duration; never a key value, a token or a cell's content. X-Request-Id is echoed. A request
// the client aborted is logged as an abort, never as a database outage.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { log, setLogTarget } from "@/lib/log";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";
import { route } from "@/lib/routes/route";
import { registeredKey } from "@/testing/google";

let svc: TestService;
let key: string;
const lines: string[] = [];

beforeAll(async () => {
  svc = await startTestService();
  setLimitStore(memoryStore());
  const user = await createUser({ email: "logs@example.com", plan: "business" });
  key = await registeredKey(user, DEMO_SPREADSHEET_ID);
  log.level = "info";
  setLogTarget({ write: (line: string) => lines.push(line) });
});
afterAll(async () => {
  setLogTarget(undefined);
  log.level = "silent";
  setLimitStore(undefined);
  await svc.stop();
});

describe("request logs", () => {
  it("logs each request as one JSON line without secrets or cell contents", async () => {
    const api = rowsClient(DEMO_SPREADSHEET_ID, key);
    lines.length = 0;
    const res = await api.list("Products", "", { "X-Request-Id": "client-trace-0001" });
    expect(res.headers.get("x-request-id")).toBe("client-trace-0001");
    await api.create("Products", { name: "Secret gadget", notes: "confidential note" });
    await rowsClient(DEMO_SPREADSHEET_ID, "shk_0000000000000000000000000000000000000A").list("Products");

    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.msg === "request");
    expect(entries).toHaveLength(3);
    expect(entries[0]).toMatchObject({
      level: "info",
      req_id: "client-trace-0001",
      method: "GET",
      route: "/api/v1/{sheetId}/{tabName}",
      sheet: DEMO_SPREADSHEET_ID,
      key_prefix: key.slice(0, 8),
      status: 200,
    });
    expect(typeof entries[0]!.duration_ms).toBe("number");
    expect(entries[1]).toMatchObject({ method: "POST", status: 201 });
    expect(entries[2]).toMatchObject({ status: 401, key_prefix: "shk_0000" });
    const all = lines.join("\n");
    for (const secret of [key, "Secret gadget", "confidential note", "Desk lamp"]) expect(all).not.toContain(secret);
  });

  it("replaces a malformed X-Request-Id with its own", async () => {
    const res = await rowsClient(DEMO_SPREADSHEET_ID, key).list("Products", "", {
      "X-Request-Id": "bad id with spaces",
    });
    expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
  });
});

describe("aborted requests", () => {
  it("are logged as aborts, not as a database outage", async () => {
    lines.length = 0;
    const controller = new AbortController();
    // What Node raises when the client drops the connection while its body is read.
    const handler = route(async ({ req }) => {
      controller.abort();
      await req.text();
      throw Object.assign(new Error("aborted"), { code: "ECONNRESET" });
    });
    const res = await handler(
      new Request("http://localhost/x", { method: "POST", body: "{}", signal: controller.signal }),
    );
    expect(res.status).toBe(499);
    const entries = lines.map((l) => JSON.parse(l) as { msg: string; status?: number });
    expect(entries.map((e) => e.msg)).toContain("request aborted by the client");
    expect(entries.map((e) => e.msg)).not.toContain("database unavailable");
    expect(entries.find((e) => e.msg === "request")?.status).toBe(499);
  });
});
