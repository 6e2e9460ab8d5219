// Builds the app when there is no build yet, the sources changed since the last one, or the last
// one was made for the benchmarks (with their bench-only routes) and this one is not, or back.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const SOURCES = ["app", "lib", "db", "public", "next.config.mjs", "postcss.config.mjs", "package-lock.json", "tsconfig.json"];
/** Set at build time, this includes the benchmark's bare route (bench/); production builds never do. */
export const BENCH_ROUTES_VAR = "SHEETAPI_BENCH_ROUTES";
const MARK = join(".next", "sheetapi-build.json");

export const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

// The start command itself is not part of the app: changing it needs no new build.
const NOT_APP = join("lib", "cli");

function newestMtime(path: string): number {
  if (!existsSync(path) || path.endsWith(NOT_APP)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

const benchRoutes = (env: NodeJS.ProcessEnv) => env[BENCH_ROUTES_VAR] === "1";

function builtWithBenchRoutes(root: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(root, MARK), "utf8")) as { benchRoutes?: boolean }).benchRoutes === true;
  } catch {
    return false;
  }
}

export function buildIsStale(root: string, env: NodeJS.ProcessEnv): boolean {
  const buildId = join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  if (builtWithBenchRoutes(root) !== benchRoutes(env)) return true;
  const built = statSync(buildId).mtimeMs;
  return SOURCES.some((s) => newestMtime(join(root, s)) > built);
}

export function runNextBuild(root: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [nextBin, "build"], { cwd: root, env, stdio: "inherit" });
    // Stopped while building (Ctrl-C, the launcher stopping): the build stops too, not on its own.
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => child.kill(signal));
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`next build failed with exit code ${code}`));
      writeFileSync(join(root, MARK), JSON.stringify({ benchRoutes: benchRoutes(env) }));
      resolve();
    });
  });
}
