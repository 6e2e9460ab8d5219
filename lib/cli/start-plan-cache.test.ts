// The kept start plan is used only for the same configuration on the same build, and never
// holds the variables' values.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cachedPlan, keepPlan, samePlan } from "./start-plan-cache.mjs";

const plan = {
  production: false,
  server: {
    args: ["next", "start"],
    envSet: { DATA_DIR: "/d" },
    envUnset: ["NODE_ENV"],
    localUrl: "http://127.0.0.1:3000",
  },
  gate: "/d/gate",
  built: false,
};

describe("the kept start plan", () => {
  const root = mkdtempSync(join(tmpdir(), "sheetapi-plan-"));
  const env = { PORT: "3000", AUTH_SECRET: "s3cret-value", PATH: "/bin" };
  keepPlan(root, ["PORT", "AUTH_SECRET"], env, [], 1000, plan);

  it("is found again for the same variables, arguments and build", () => {
    expect(cachedPlan(root, { ...env, PATH: "/other" }, [], 1000)).toEqual(plan);
  });

  it("is not used when a variable the configuration reads, the arguments or the build differ", () => {
    expect(cachedPlan(root, { ...env, PORT: "3001" }, [], 1000)).toBeUndefined();
    expect(cachedPlan(root, { ...env, AUTH_SECRET: undefined }, [], 1000)).toBeUndefined();
    expect(cachedPlan(root, env, ["--dev"], 1000)).toBeUndefined();
    expect(cachedPlan(root, env, [], 2000)).toBeUndefined();
    expect(cachedPlan(root, env, [], undefined)).toBeUndefined();
  });

  it("keeps no value of any variable", () => {
    const dir = join(root, ".next", "start-plans");
    for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file), "utf8")).not.toContain("s3cret-value");
  });

  it("tells whether two plans start the same server", () => {
    expect(samePlan(plan, { ...plan, built: true })).toBe(true);
    expect(samePlan(plan, { ...plan, server: { ...plan.server, args: ["next", "start", "-p", "1"] } })).toBe(false);
    expect(samePlan(plan, { ...plan, gate: undefined })).toBe(false);
  });
});
