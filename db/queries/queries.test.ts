// The same migrations and queries, run against PGlite and against the real Postgres.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDatabase, type DatabaseHandle } from "@/db/client";
import { freshPglite, freshPostgres } from "@/testing/databases";
import { testPostgresUrl } from "@/testing/services";
import { sql } from "drizzle-orm";
import { tabIdMarks } from "../schema";
import { idMark, raiseIdMark } from "./id-marks";
import {
  findApiKeyByHash,
  getApiKeyForUser,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
  setApiKeyPermissions,
  stampApiKeysUsed,
} from "./api-keys";
import { getSheetForUser, insertSheet, listSheets, saveSheetSchema } from "./sheets";
import { addUsage, usageByDay } from "./usage";
import { createUser, getUserByEmail, setUserPlan } from "./users";

const postgresUrl = await testPostgresUrl();
const drivers: [string, (() => Promise<DatabaseHandle>) | undefined][] = [
  ["PGlite", freshPglite],
  ["Postgres", postgresUrl ? () => freshPostgres(postgresUrl) : undefined],
];

describe.each(drivers)("queries on %s", (_name, open) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    if (!open) return;
    handle = await open();
    setDatabase(handle);
  });
  afterAll(async () => handle?.close());

  it.skipIf(!open)("keeps each tab's highest id, only ever raising it", async () => {
    const tab = { gid: 7, name: "Tab" };
    expect(await idMark("1ids", tab)).toBe(0);
    await raiseIdMark("1ids", tab, 42);
    await raiseIdMark("1ids", tab, 17);
    await Promise.all([45, 44, 43].map((last) => raiseIdMark("1ids", tab, last)));
    expect(await idMark("1ids", tab)).toBe(45);
    expect(await idMark("1ids", { gid: 7, name: "Renamed" })).toBe(45);
    expect(await idMark("1ids", { gid: 8, name: "Other tab" })).toBe(0);
  });

  it.skipIf(!open)(
    "migration 0011 copies a mark kept under a tab's name to its gid, as the sheet's stored model names it",
    async () => {
      const owner = await createUser({ email: "marks@example.com", name: "M" });
      await insertSheet({
        id: "3ids",
        userId: owner.id,
        name: "Marks",
        access: "service_account",
        schema: {
          tabs: [
            { name: "Old name", gid: 12 },
            { name: "Other", gid: 13 },
          ],
        },
      });
      await handle!.db.insert(tabIdMarks).values([
        { sheetId: "3ids", tab: "Old name", lastId: 50 },
        { sheetId: "3ids", tab: "gid:13", lastId: 9 },
        { sheetId: "3ids", tab: "Other", lastId: 7 },
      ]);
      const { readFile } = await import("node:fs/promises");
      await handle!.db.execute(sql.raw(await readFile("db/migrations/0011_id_marks_by_gid.sql", "utf8")));
      // Renamed since: the gid's mark carries the name's.
      expect(await idMark("3ids", { gid: 12, name: "New name" })).toBe(50);
      expect(await idMark("3ids", { gid: 13, name: "Renamed too" })).toBe(9);
    },
  );

  it.skipIf(!open)("reads a mark kept under the tab's name before gids, and keeps the larger", async () => {
    await handle!.db.insert(tabIdMarks).values({ sheetId: "2ids", tab: "Legacy", lastId: 30 });
    expect(await idMark("2ids", { gid: 3, name: "Legacy" })).toBe(30);
    await raiseIdMark("2ids", { gid: 3, name: "Legacy" }, 31);
    expect(await idMark("2ids", { gid: 3, name: "Legacy" })).toBe(31);
    expect(await idMark("2ids", { gid: 3, name: "Renamed since" })).toBe(31);
  });

  it.skipIf(!open)("creates accounts on the Free Trial plan with a billing anchor", async () => {
    const user = await createUser({ email: "a@example.com", name: "A" });
    expect(user.plan).toBe("free_trial");
    expect(user.billingAnchor).toBeInstanceOf(Date);
    await setUserPlan({ id: user.id, plan: "business" });
    expect((await getUserByEmail({ email: "a@example.com" }))?.plan).toBe("business");
    await expect(createUser({ email: "a@example.com" })).rejects.toThrow();
  });

  it.skipIf(!open)("keeps sheets per account and their schema as JSON", async () => {
    const owner = await createUser({ email: "owner@example.com" });
    const other = await createUser({ email: "other@example.com" });
    await insertSheet({ id: "1abc", userId: owner.id, name: "Budget", access: "service_account", writable: true });
    await expect(insertSheet({ id: "1abc", userId: other.id, name: "x", access: "public" })).rejects.toThrow();
    await saveSheetSchema({
      id: "1abc",
      schema: { tabs: [{ name: "Tab 1", columns: [] }] },
      at: new Date(1700000000000),
    });
    const sheet = await getSheetForUser({ id: "1abc", userId: owner.id });
    expect(sheet?.schema).toEqual({ tabs: [{ name: "Tab 1", columns: [] }] });
    expect(sheet?.schemaUpdatedAt?.getTime()).toBe(1700000000000);
    expect(await getSheetForUser({ id: "1abc", userId: other.id })).toBeUndefined();
    expect((await listSheets({ userId: owner.id })).map((s) => s.id)).toEqual(["1abc"]);
  });

  it.skipIf(!open)("stores key hashes with permission arrays and revokes only the owner's keys", async () => {
    const owner = await createUser({ email: "keys@example.com" });
    const stranger = await createUser({ email: "stranger@example.com" });
    await insertSheet({ id: "1keys", userId: owner.id, name: "Keys", access: "public" });
    await insertApiKey({
      id: "key_1",
      sheetId: "1keys",
      userId: owner.id,
      name: "prod",
      hash: "h1",
      displayPrefix: "shk_ab",
      permissions: ["read", "schema"],
    });
    expect((await findApiKeyByHash({ hash: "h1" }))?.permissions).toEqual(["read", "schema"]);
    expect(await setApiKeyPermissions({ userId: stranger.id, id: "key_1", permissions: ["write"] })).toBeUndefined();
    expect(
      (await setApiKeyPermissions({ userId: owner.id, id: "key_1", permissions: ["read", "write"] }))?.version,
    ).toBe(2);
    expect(await revokeApiKey({ userId: stranger.id, id: "key_1" })).toBeUndefined();
    const revoked = await revokeApiKey({ userId: owner.id, id: "key_1" });
    expect(revoked).toMatchObject({ version: 3, permissions: ["read", "write"] });
    expect(revoked?.revokedAt).toBeInstanceOf(Date);
    expect(await revokeApiKey({ userId: owner.id, id: "key_1" })).toBeUndefined();
    expect(await setApiKeyPermissions({ userId: owner.id, id: "key_1", permissions: ["read"] })).toBeUndefined();
    await stampApiKeysUsed({ ids: ["key_1"], at: new Date(1_800_000_000_000) });
    const [key] = await listApiKeys({ userId: owner.id, sheetId: "1keys" });
    expect(key?.lastUsedAt?.getTime()).toBe(1_800_000_000_000);
    expect(await getApiKeyForUser({ userId: stranger.id, id: "key_1" })).toBeUndefined();
  });

  it.skipIf(!open)("sums usage batches per day and status class", async () => {
    const user = await createUser({ email: "usage@example.com" });
    const row = { userId: user.id, sheetId: "1s", keyId: "key_1", day: "2026-11-01", statusClass: "2xx", count: 3 };
    await addUsage([row, { ...row, statusClass: "4xx", count: 1 }]);
    await addUsage([
      { ...row, count: 2 },
      { ...row, day: "2026-11-02", count: 5 },
    ]);
    expect(await usageByDay({ userId: user.id, from: "2026-11-01", to: "2026-11-03" })).toEqual([
      { day: "2026-11-01", statusClass: "2xx", count: 5 },
      { day: "2026-11-01", statusClass: "4xx", count: 1 },
      { day: "2026-11-02", statusClass: "2xx", count: 5 },
    ]);
  });
});
