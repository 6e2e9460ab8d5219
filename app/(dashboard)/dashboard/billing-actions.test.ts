// Bad input to a dashboard action (not what its page sends: a forged or broken request) is a
// 404 answer and one warning line, never a 500 with a stack trace or an "unreachable Stripe".
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { log, setLogTarget } from "@/lib/log";

vi.mock("next/headers", () => ({ headers: async () => new Headers({ "x-request-id": "req_badinput000001" }) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("@/lib/auth/session", () => ({ currentUser: async () => ({ id: "user-1", email: "owner@example.com" }) }));

/** Next.js answers an action that throws this with 404 (its `notFound()`). */
const NOT_FOUND = { digest: "NEXT_HTTP_ERROR_FALLBACK;404" };

function captureLogs(): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  log.level = "debug";
  setLogTarget({ write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return lines;
}

afterEach(() => {
  setLogTarget(undefined);
  log.level = "silent";
});

describe("malformed input to dashboard actions", () => {
  it.each([
    ["a string", "plan=business"],
    ["null", null],
    ["an object", { plan: "business" }],
    ["an array", ["business"]],
  ])("the checkout and plan forms given %s: 404 and one warning", async (_kind, input) => {
    const { checkoutAction } = await import("./billing-actions");
    const { changePlanAction } = await import("./actions");
    for (const [action, name] of [
      [checkoutAction, "checkout"],
      [changePlanAction, "change plan"],
    ] as const) {
      const lines = captureLogs();
      await expect((action as (before: null, form: unknown) => Promise<unknown>)(null, input)).rejects.toMatchObject(
        NOT_FOUND,
      );
      expect(lines.map((l) => [l.level, l.msg, l.action])).toEqual([
        ["warn", "dashboard action: malformed input refused", name],
      ]);
      expect(lines[0]!.stack).toBeUndefined();
    }
  });

  it("a form whose plan is a file is an answer in the form, logged as nothing worse than it is", async () => {
    const { checkoutAction } = await import("./billing-actions");
    const form = new FormData();
    form.set("plan", new Blob(["business"]), "plan.txt");
    const lines = captureLogs();
    const answer = await checkoutAction(null, form);
    expect(answer).toMatchObject({ error: expect.any(String) });
    expect(lines.filter((l) => l.level === "error" || l.level === "fatal")).toEqual([]);
  });

  it("every session action refuses input that is not an object of fields the same way", async () => {
    const { sessionAction } = await import("@/lib/auth/actions");
    const action = sessionAction(z.object({ sheetId: z.string() }), async () => "done");
    for (const input of ["S1abc", 7, null, ["S1abc"]]) {
      const lines = captureLogs();
      await expect(action(input)).rejects.toMatchObject(NOT_FOUND);
      expect(lines.map((l) => [l.level, l.msg, l.req_id])).toEqual([
        ["warn", "dashboard action: malformed input refused", "req_badinput000001"],
      ]);
    }
    // A field of the wrong kind is the form's own message, as before.
    expect(await action({ sheetId: 7 })).toMatchObject({ ok: false });
  });
});
