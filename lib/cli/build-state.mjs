// Whether the production build in .next is current, shared by the launcher and the preparation:
// stale when missing, older than the sources, or made with the other bench setting (README.md).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { STANDALONE_SERVER } from "./standalone.mjs";

const SOURCES = [
  "app",
  "lib",
  "db",
  "public",
  "next.config.ts",
  "postcss.config.mjs",
  "package-lock.json",
  "tsconfig.json",
];
/** Set at build time, this includes the benchmark's bare route (bench/); production builds never do. */
export const BENCH_ROUTES_VAR = "SHEETAPI_BENCH_ROUTES";
export const BUILD_MARK = join(".next", "sheetapi-build.json");

export const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

// The start command itself is not part of the app: changing it needs no new build.
const NOT_APP = join("lib", "cli");

function newestMtime(path) {
  if (!existsSync(path) || path.endsWith(NOT_APP)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

export const benchRoutes = (env) => env[BENCH_ROUTES_VAR] === "1";

function builtWithBenchRoutes(root) {
  try {
    return JSON.parse(readFileSync(join(root, BUILD_MARK), "utf8")).benchRoutes === true;
  } catch {
    return false;
  }
}

/** When the current build was made (ms), or undefined when a start would have to build first. */
export function freshBuildTime(root, env) {
  const buildId = join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId) || !existsSync(join(root, STANDALONE_SERVER))) return undefined;
  if (builtWithBenchRoutes(root) !== benchRoutes(env)) return undefined;
  const built = statSync(buildId).mtimeMs;
  return SOURCES.some((s) => newestMtime(join(root, s)) > built) ? undefined : built;
}

export const buildIsStale = (root, env) => freshBuildTime(root, env) === undefined;
