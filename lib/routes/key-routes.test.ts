// Every key-authenticated route refuses the same things the same way (SPEC Authentication 5-6):
// no key, a garbage key, a revoked key, another sheet's key (401), a key without the route's
// permission (403), a form key (403: it only appends through its form address). Run with the
// in-process store and with Upstash over the real Redis.
import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { DEMO_SPREADSHEET_ID, PUBLIC_READONLY_SPREADSHEET_ID } from "@/emulators/google/seed";
import { setLimitStore } from "@/lib/store/store";
import { serviceAndStores } from "@/testing/stores";
import { PERMISSIONS } from "@/lib/keys/permissions";
import { KEY_ROUTES } from "@/testing/key-routes";
import { callRoute } from "@/testing/routes";
import type { TestService } from "@/testing/service";
import { registeredKey } from "@/testing/google";

let svc: TestService;
const stores = await serviceAndStores((s) => (svc = s));

describe.each(stores)("key-authenticated routes, %s store", (storeName, makeStore) => {
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    setLimitStore(makeStore());
    await svc.admin("/reset", {});
    await svc.db.db.execute((await import("drizzle-orm")).sql`truncate users cascade`);
    const { createKeyForSheet, revokeKey } = await import("@/lib/keys/manage");
    const owner = await createUser({ email: `owner-${storeName}@example.com`, plan: "business" });
    const other = await createUser({ email: `other-${storeName}@example.com`, plan: "business" });
    keys.full = await registeredKey(owner, DEMO_SPREADSHEET_ID);
    keys.otherSheet = await registeredKey(other, PUBLIC_READONLY_SPREADSHEET_ID);
    const revoked = await createKeyForSheet({
      userId: owner.id,
      sheetId: DEMO_SPREADSHEET_ID,
      name: "old",
      permissions: [...PERMISSIONS],
    });
    await revokeKey({ userId: owner.id, keyId: revoked.key.id });
    keys.revoked = revoked.value;
    const { createFormKey } = await import("@/lib/keys/form-keys");
    keys.form = (
      await createFormKey({
        userId: owner.id,
        sheetId: DEMO_SPREADSHEET_ID,
        name: "form",
        form: { tab: "Products", origins: ["https://shop.example.com"] },
      })
    ).value;
    for (const p of PERMISSIONS) {
      const without = await createKeyForSheet({
        userId: owner.id,
        sheetId: DEMO_SPREADSHEET_ID,
        name: `no ${p}`,
        permissions: PERMISSIONS.filter((x) => x !== p),
      });
      keys[`without-${p}`] = without.value;
    }
  });

  describe.each(KEY_ROUTES)("$name", (r) => {
    const call = async (key?: string) => {
      const mod = await r.load();
      return callRoute(mod[r.method], {
        method: r.method,
        path: r.path(DEMO_SPREADSHEET_ID),
        params: { sheetId: DEMO_SPREADSHEET_ID, ...r.params },
        headers: key === undefined ? {} : { "X-API-Key": key },
        body: r.body,
      });
    };

    const refusals = [
      ["no key", undefined, 401, "unauthorized", /Missing API key/],
      ["an empty key", "", 401, "unauthorized", /Missing API key/],
      ["a garbage key", "not-a-key", 401, "unauthorized", /Invalid API key/],
      [
        "a well-formed unknown key",
        "shk_0000000000000000000000000000000000000A",
        401,
        "unauthorized",
        /Invalid API key/,
      ],
      ["a revoked key", "revoked", 401, "unauthorized", /revoked/],
      ["another sheet's key", "otherSheet", 401, "unauthorized", /Invalid API key/],
      ["a key without the permission", "without", 403, "forbidden", /lacks the/],
      ["a form key", "form", 403, "forbidden", /form key: it only appends rows/],
    ] as const;
    // On an account-level route another account's key simply speaks for that account.
    it.each(refusals.filter(([, key]) => !(r.accountLevel && key === "otherSheet")))(
      "refuses %s",
      async (_case, key, status, code, message) => {
        const value = key === "without" ? keys[`without-${r.permission}`] : key && key in keys ? keys[key] : key;
        const res = await call(value);
        expect(res.status).toBe(status);
        expect(res.body).toMatchObject({ success: false, error: code });
        expect(String(res.body.message)).toMatch(message);
        expect(res.headers.get("x-request-id")).toMatch(/^req_/);
      },
    );

    it("serves a key that has the permission", async () => {
      const res = await call(keys.full);
      expect(res.status).toBe(r.okStatus ?? 200);
      expect(res.body.success).toBe(true);
    });
  });

  it("takes permission changes and revocation into account on the very next request", async () => {
    const { createKeyForSheet, updateKeyPermissions, revokeKey } = await import("@/lib/keys/manage");
    const { getUserByEmail } = await import("@/db/queries/users");
    const owner = (await getUserByEmail({ email: `owner-${storeName}@example.com` }))!;
    const { key, value } = await createKeyForSheet({
      userId: owner.id,
      sheetId: DEMO_SPREADSHEET_ID,
      name: "live",
      permissions: ["schema"],
    });
    const { GET } = await import("@/app/api/[sheetId]/schema/route");
    const call = () =>
      callRoute(GET, {
        path: `/api/${DEMO_SPREADSHEET_ID}/schema`,
        params: { sheetId: DEMO_SPREADSHEET_ID },
        headers: { "X-API-Key": value },
      });
    expect((await call()).status).toBe(200);
    await updateKeyPermissions({ userId: owner.id, keyId: key.id, permissions: ["read"] });
    expect((await call()).status).toBe(403);
    await updateKeyPermissions({ userId: owner.id, keyId: key.id, permissions: ["read", "schema"] });
    expect((await call()).status).toBe(200);
    await revokeKey({ userId: owner.id, keyId: key.id });
    expect((await call()).status).toBe(401);
  });
});
