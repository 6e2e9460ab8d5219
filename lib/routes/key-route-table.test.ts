// The refusal table (testing/key-routes.ts) against app/: every handler a route file builds with
// withApiKey or withAccountKey is in the table, so a new key route cannot miss the shared checks.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { KEY_ROUTES } from "@/testing/key-routes";

const app = resolve(import.meta.dirname, "../../app");
const KEY_HANDLER = /export const (GET|HEAD|POST|PUT|PATCH|DELETE) = with(?:ApiKey|AccountKey)\b/g;

/** "GET /api/v1/{sheetId}/{tabName}" for each key handler under app/. */
function keyHandlersInApp(): string[] {
  const files = readdirSync(app, { recursive: true, encoding: "utf8" }).filter((path) => /(^|\/)route\.ts$/.test(path));
  return files.flatMap((file) => {
    const path = `/${file.replace(/\/?route\.ts$/, "")}`
      .replace(/\[([^\]]+)\]/g, "{$1}")
      .replace(/%5F/g, "_")
      .replace(/\/\([^)]+\)/g, "");
    return [...readFileSync(join(app, file), "utf8").matchAll(KEY_HANDLER)].map(([, method]) => `${method} ${path}`);
  });
}

describe("the refusal table", () => {
  it("names every key-authenticated handler in app/", () => {
    const listed = new Set(KEY_ROUTES.map((r) => r.name.replace(/\?.*$/, "")));
    const found = keyHandlersInApp();
    expect(found.length).toBeGreaterThan(10);
    expect(found.filter((handler) => !listed.has(handler)).sort()).toEqual([]);
  });
});
