// Error messages never echo more than a short excerpt of what the client sent (a 900 KB field
// name is not sent back).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";
import { MAX_ECHO } from "@/lib/errors";
import { registeredKey } from "@/testing/google";

let svc: TestService;
let api: ReturnType<typeof rowsClient>;

beforeAll(async () => {
  svc = await startTestService();
  setLimitStore(memoryStore());
  const user = await createUser({ email: "client-faults@example.com", plan: "business" });
  api = rowsClient(DEMO_SPREADSHEET_ID, await registeredKey(user, DEMO_SPREADSHEET_ID));
});
afterAll(async () => {
  setLimitStore(undefined);
  await svc.stop();
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
