// The last start's plan, kept beside the build so a start with the same configuration starts the
// server at once; only variables' names and a digest of their values are kept (README.md).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = (root) => join(root, ".next", "start-plans");

function fingerprint(names, env, args) {
  return createHash("sha256")
    .update(JSON.stringify([args, names.map((n) => [n, env[n] ?? null])]))
    .digest("hex")
    .slice(0, 32);
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/** The plan kept for this configuration and this build (`buildTime`: lib/cli/build-state.mjs), if any. */
export function cachedPlan(root, env, args, buildTime) {
  const names = readJson(join(dir(root), "variables.json"));
  if (!Array.isArray(names) || buildTime === undefined) return undefined;
  const entry = readJson(join(dir(root), `${fingerprint(names, env, args)}.json`));
  return entry?.buildTime === buildTime ? entry.plan : undefined;
}

/** Keeps the plan for the next start with the same configuration on the same build. */
export function keepPlan(root, names, env, args, buildTime, plan) {
  mkdirSync(dir(root), { recursive: true });
  const write = (name, value) => {
    const tmp = join(dir(root), `${name}.${process.pid}.tmp`);
    writeFileSync(tmp, JSON.stringify(value));
    renameSync(tmp, join(dir(root), name));
  };
  write("variables.json", names);
  write(`${fingerprint(names, env, args)}.json`, { buildTime, plan });
}

/** Whether two plans start the same server. */
export const samePlan = (a, b) => JSON.stringify(a?.server) === JSON.stringify(b?.server) && a?.gate === b?.gate;
