// The write routes' replay handling: a retry whose earlier attempt landed after all answers with
// that attempt's answer, marked as replayed; any other answer goes out unmarked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ok } from "@/lib/http/envelope";
import { OutcomeUnknown } from "@/lib/errors";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { idempotentWrite, type ReplayOptions } from "./replay";

beforeAll(() => setLimitStore(memoryStore()));
afterAll(() => setLimitStore(undefined));

const request = (key: string) =>
  new Request("http://localhost/api/v1/s/Items", { method: "PATCH", headers: { "Idempotency-Key": key } });

/** A first attempt whose write (id 7) was not confirmed: the key keeps the write and the answer it would have had. */
async function unconfirmedFirstAttempt(key: string): Promise<void> {
  await expect(
    idempotentWrite(request(key), "account", { body: 1 }, async () => {
      throw new OutcomeUnknown("not confirmed in time", 7, { updated: 2 });
    }),
  ).rejects.toBeInstanceOf(OutcomeUnknown);
}

describe("idempotentWrite", () => {
  it("answers a retry whose earlier write landed with that write's answer, marked as replayed", async () => {
    await unconfirmedFirstAttempt("landed");
    let told: ReplayOptions | undefined;
    const res = await idempotentWrite(request("landed"), "account", { body: 1 }, async (options, answerOf) => {
      told = options;
      return ok({ data: answerOf<{ updated: number }>("earlier-landed") });
    });
    expect(told).toEqual({ idempotencyKey: "landed", earlierWrite: 7, earlierAnswer: { updated: 2 } });
    expect(res.headers.get("idempotent-replayed")).toBe("true");
    expect(await res.json()).toEqual({ success: true, data: { updated: 2 } });
  });

  it("answers a retry whose earlier write did not land with its own result, unmarked", async () => {
    await unconfirmedFirstAttempt("lost");
    const res = await idempotentWrite(request("lost"), "account", { body: 1 }, async (_options, answerOf) =>
      ok({ data: answerOf({ updated: 3 }) }),
    );
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    expect(await res.json()).toEqual({ success: true, data: { updated: 3 } });
  });

  it("tells a write without an Idempotency-Key nothing of earlier attempts", async () => {
    const plain = new Request("http://localhost/api/v1/s/Items", { method: "PATCH" });
    const res = await idempotentWrite(plain, "account", {}, async (options, answerOf) =>
      ok({ data: answerOf({ options }) }),
    );
    expect(await res.json()).toEqual({ success: true, data: { options: {} } });
    expect(res.headers.get("idempotent-replayed")).toBeNull();
  });
});
