// Key management: scoped to the account, write-through to the store, no key value at rest.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { ApiError } from "@/lib/errors";
import { memoryStore, setLimitStore, type LimitStore } from "@/lib/store/store";
import { startTestService, type TestService } from "@/testing/service";
import { hashApiKey } from "@/lib/api-key";
import { keyRecordKey } from "./key-record";
import { registeredKey } from "@/testing/google";

let svc: TestService;
let owner: User;
let stranger: User;
let manage: typeof import("./manage");
let firstKey: string;

beforeAll(async () => {
  svc = await startTestService();
  setLimitStore(memoryStore());
  manage = await import("./manage");
  owner = await createUser({ email: "owner@example.com" });
  stranger = await createUser({ email: "stranger@example.com" });
  firstKey = await registeredKey(owner, DEMO_SPREADSHEET_ID);
});
afterAll(async () => {
  setLimitStore(undefined);
  await svc.stop();
});

const notFound = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).code).toBe("not_found");
};

describe("key management", () => {
  it("shows and changes only the account's own keys: another account's key id is not found", async () => {
    const { key } = await manage.createKeyForSheet({
      userId: owner.id,
      sheetId: DEMO_SPREADSHEET_ID,
      name: "ci",
      permissions: ["read"],
    });
    await notFound(manage.updateKeyPermissions({ userId: stranger.id, keyId: key.id, permissions: ["write"] }));
    await notFound(manage.revokeKey({ userId: stranger.id, keyId: key.id }));
    await notFound(manage.listKeysForSheet({ userId: stranger.id, sheetId: DEMO_SPREADSHEET_ID }));
    await notFound(
      manage.createKeyForSheet({ userId: stranger.id, sheetId: DEMO_SPREADSHEET_ID, name: "x", permissions: ["read"] }),
    );
    const listed = await manage.listKeysForSheet({ userId: owner.id, sheetId: DEMO_SPREADSHEET_ID });
    expect(listed.map((k) => k.name)).toEqual(["Default key", "ci"]);
    expect(JSON.stringify(listed)).not.toMatch(/hash|shk_[0-9A-Za-z]{20}/);
  });

  it("keeps revoked keys listed as revoked, and refuses to change them", async () => {
    const { key } = await manage.createKeyForSheet({
      userId: owner.id,
      sheetId: DEMO_SPREADSHEET_ID,
      name: "temp",
      permissions: ["read"],
    });
    const revoked = await manage.revokeKey({ userId: owner.id, keyId: key.id });
    expect(revoked.revokedAt).not.toBeNull();
    const err = await manage
      .updateKeyPermissions({ userId: owner.id, keyId: key.id, permissions: ["read"] })
      .catch((e: ApiError) => e);
    expect((err as ApiError).code).toBe("validation_error");
    const listed = await manage.listKeysForSheet({ userId: owner.id, sheetId: DEMO_SPREADSHEET_ID });
    expect(listed.find((k) => k.id === key.id)?.revokedAt).toBe(revoked.revokedAt);
  });

  it("says so when a revocation could not reach the store, and repairs it on retry", async () => {
    const { key, value } = await manage.createKeyForSheet({
      userId: owner.id,
      sheetId: DEMO_SPREADSHEET_ID,
      name: "flaky",
      permissions: ["read"],
    });
    const healthy = memoryStore();
    const broken: LimitStore = {
      ...healthy,
      setIfNewer: async () => {
        throw new Error("store down");
      },
    };
    setLimitStore(broken);
    const err = await manage.revokeKey({ userId: owner.id, keyId: key.id }).catch((e: ApiError) => e);
    expect((err as ApiError).code).toBe("service_unavailable");
    setLimitStore(healthy);
    await manage.revokeKey({ userId: owner.id, keyId: key.id });
    const [record] = await healthy.mget<{ revoked: boolean }>([await keyRecordKey(hashApiKey(value))]);
    expect(record?.revoked).toBe(true);
  });

  it("keeps no key value in the database", async () => {
    const { value } = await manage.createKeyForSheet({
      userId: owner.id,
      sheetId: DEMO_SPREADSHEET_ID,
      name: "scan",
      permissions: ["read"],
    });
    const dump = JSON.stringify(await svc.db.db.execute(sql`select * from api_keys`));
    expect(dump).toContain(hashApiKey(value));
    for (const secret of [value, firstKey]) {
      expect(dump).not.toContain(secret);
      expect(dump).not.toContain(secret.slice(8));
    }
  });
});
