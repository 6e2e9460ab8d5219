// What the service answers and logs when the client is at fault: an aborted request is logged as
// an abort (never as a database outage), and error messages never echo more than a short excerpt
// of what the client sent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { log, setLogTarget } from "@/lib/log";
import { memoryStore, setLimitStore } from "@/lib/limits/store";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";
import { MAX_ECHO } from "./errors";
import { route } from "./route";

let svc: TestService;
let api: ReturnType<typeof rowsClient>;
const lines: string[] = [];

beforeAll(async () => {
  svc = await startTestService();
  setLimitStore(memoryStore());
  const { registerSheet } = await import("@/lib/sheets/registration");
  const user = await createUser({ email: "client-faults@example.com", plan: "business" });
  api = rowsClient(DEMO_SPREADSHEET_ID, (await registerSheet({ userId: user.id, sheetUrl: DEMO_SPREADSHEET_ID })).apiKey!);
  log.level = "info";
  setLogTarget({ write: (line: string) => lines.push(line) });
});
afterAll(async () => {
  setLogTarget(undefined);
  log.level = "silent";
  setLimitStore(undefined);
  await svc.stop();
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
    const res = await handler(new Request("http://localhost/x", { method: "POST", body: "{}", signal: controller.signal }));
    expect(res.status).toBe(499);
    const entries = lines.map((l) => JSON.parse(l) as { msg: string; status?: number });
    expect(entries.map((e) => e.msg)).toContain("request aborted by the client");
    expect(entries.map((e) => e.msg)).not.toContain("database unavailable");
    expect(entries.find((e) => e.msg === "request")?.status).toBe(499);
  });
});

describe("error messages", () => {
  const huge = "f".repeat(900_000);
  const short = (message: unknown) => {
    expect(typeof message).toBe("string");
    expect((message as string).length).toBeLessThan(MAX_ECHO + 400);
    expect(message).toContain(`${"f".repeat(MAX_ECHO)}…`);
  };

  it("echo at most a short excerpt of a field name", async () => {
    const created = await api.create("Products", { [huge]: "x" });
    expect(created.status).toBe(400);
    short(created.body.message);
    const shaped = await api.create("Products", { [huge]: { nested: true } });
    expect(shaped.status).toBe(400);
    short(shaped.body.message);
  });

  it("echo at most a short excerpt of query parameters and ids", async () => {
    short((await api.list("Products", `filter=${huge.slice(0, 20_000)}=1`)).body.message);
    short((await api.list("Products", `sort=${huge.slice(0, 20_000)}`)).body.message);
    short((await api.list("Products", `${huge.slice(0, 20_000)}=1`)).body.message);
    short((await api.get("Products", huge.slice(0, 20_000))).body.message);
  });
});
