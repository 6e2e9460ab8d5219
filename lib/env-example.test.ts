// .env.example and lib/env.ts name the same variables, and every value .env.example sets is the
// default lib/env.ts applies. Compared by name, generically: a variable added to the schema
// without a line in .env.example (or left there after it was removed) fails here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, ConfigError, loadConfig, logLevel } from "./env";
import { limitStoreProblem } from "@/lib/store/store-check";

const root = join(import.meta.dirname, "..");
const example = readFileSync(join(root, ".env.example"), "utf8");
const envSource = readFileSync(join(root, "lib", "env.ts"), "utf8");

/** Set by the test runner, never by an operator. */
const NOT_SETTINGS = new Set(["VITEST"]);

/** `NAME=value` lines, commented out or not. */
const exampleLines = [...example.matchAll(/^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/gm)].map(([, commented, name, value]) => ({
  name: name!,
  value: value!.trim(),
  set: !commented,
}));

/** Every variable lib/env.ts reads: the schema's, and those read on their own (`source.NAME`). */
function variablesRead(): string[] {
  const direct = [...envSource.matchAll(/\b(?:source|process\.env)\.([A-Z][A-Z0-9_]*)\b/g)].map(([, name]) => name!);
  return [...new Set([...CONFIG_VARIABLES, ...direct])].filter((name) => !NOT_SETTINGS.has(name)).sort();
}

describe(".env.example", () => {
  it("names every variable lib/env.ts reads, and no other", () => {
    const documented = [...new Set(exampleLines.map((l) => l.name))].sort();
    expect(documented).toEqual(variablesRead());
  });

  it("sets each variable it sets to lib/env.ts's default", () => {
    // Settings that keep the configuration from touching the disk (no generated secrets).
    const cfg = loadConfig({
      AUTH_SECRET: "s",
      ENCRYPTION_KEY: "0".repeat(64),
      GOOGLE_SERVICE_ACCOUNT_JSON: JSON.stringify({ client_email: "sa@example.com", private_key: "k" }),
    });
    const defaults: Record<string, unknown> = { ...cfg.env, LOG_LEVEL: logLevel({}) };
    const differing = exampleLines
      .filter((l) => l.set && String(defaults[l.name] ?? "") !== l.value)
      .map((l) => `${l.name}=${l.value} (default ${String(defaults[l.name])})`);
    expect(differing).toEqual([]);
  });

  it("points to sections of docs/operations.md that exist", async () => {
    const operations = readFileSync(join(root, "docs", "operations.md"), "utf8");
    const headings = new Set([...operations.matchAll(/^#{2,3} (.+)$/gm)].map(([, title]) => title!.trim()));
    const sectionsNamed = (message: string) =>
      [...message.matchAll(/docs\/operations\.md, ([A-Z][\w /]+?)\)/g)].map(([, name]) => name!);
    let missing = "";
    try {
      loadConfig({ NODE_ENV: "production" });
    } catch (err) {
      missing = (err as ConfigError).message;
    }
    const store = (await limitStoreProblem(
      { kind: "upstash", url: "http://127.0.0.1:9/", token: "t", timeoutMs: 100 },
      async () => new Response("", { status: 401 }),
    ))!.message;
    const named = [...sectionsNamed(missing), ...sectionsNamed(store)];
    expect(named).toEqual(["Deploy", "Deploy"]);
    for (const section of named) expect(headings.has(section)).toBe(true);
  });
});
