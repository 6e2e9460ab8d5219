// A dashboard action's log lines name its request as a route's do: the id proxy.ts gave the page
// request carrying it, the page it was sent from (its sheet as {sheetId}) and the sheet.
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { log, setLogTarget } from "@/lib/log";

vi.mock("next/headers", () => ({
  headers: async () =>
    new Headers({ "x-request-id": "req_fromtheproxy0001", "x-sheetapi-return-to": "/dashboard/sheets/S1abc?tab=keys" }),
}));
vi.mock("./session", () => ({ currentUser: async () => ({ id: "user-1", email: "owner@example.com" }) }));

afterEach(() => {
  setLogTarget(undefined);
  log.level = "silent";
});

describe("dashboard actions in the logs", () => {
  it("carry the page request's id, the page and the sheet on every line they write", async () => {
    const { sessionAction } = await import("./actions");
    const lines: Record<string, unknown>[] = [];
    log.level = "warn";
    setLogTarget({ write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
    const action = sessionAction(z.object({ sheetId: z.string() }), async () => {
      log.warn("sheets: could not publish the sheet record");
      throw new Error("boom");
    });
    expect(await action({ sheetId: "S1abc" })).toMatchObject({ ok: false });
    expect(lines.map((l) => [l.msg, l.req_id, l.route, l.sheet])).toEqual([
      [
        "sheets: could not publish the sheet record",
        "req_fromtheproxy0001",
        "action /dashboard/sheets/{sheetId}",
        "S1abc",
      ],
      ["dashboard action: unhandled error", "req_fromtheproxy0001", "action /dashboard/sheets/{sheetId}", "S1abc"],
    ]);
  });
});
