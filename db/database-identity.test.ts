// The database's own name for the limit store (db/client.ts, scope()): the same for every opening
// of one embedded database however its folder is spelled, different for each throwaway one.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "./client";
import { migrateDatabase } from "./migrator";

const dir = mkdtempSync(join(tmpdir(), "sheetapi-identity-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the database's scope", { timeout: 120_000 }, () => {
  it("is kept in the embedded database itself, whatever the path to it", async () => {
    const first = openDatabase({ kind: "pglite", dir: join(dir, "pglite") });
    await migrateDatabase(first);
    const scope = await first.scope();
    await first.close();
    const again = openDatabase({ kind: "pglite", dir: `${dir}/./pglite/` });
    expect(await again.scope()).toBe(scope);
    expect(again.addressScope).not.toBe(first.addressScope);
    await again.close();
  });

  it("differs between throwaway databases", async () => {
    const [a, b] = [
      openDatabase({ kind: "pglite", dir: "memory://" }),
      openDatabase({ kind: "pglite", dir: "memory://" }),
    ];
    expect(await a.scope()).not.toBe(await b.scope());
    await Promise.all([a.close(), b.close()]);
  });
});
