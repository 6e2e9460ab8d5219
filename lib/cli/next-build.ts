// Builds the app when there is no build yet or the sources changed since the last one.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const SOURCES = ["app", "lib", "db", "public", "next.config.ts", "postcss.config.mjs", "package-lock.json", "tsconfig.json"];

export const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

export function buildIsStale(root: string): boolean {
  const buildId = join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  return SOURCES.some((s) => newestMtime(join(root, s)) > built);
}

export function runNextBuild(root: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [nextBin, "build"], { cwd: root, env, stdio: "inherit" });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`next build failed with exit code ${code}`))));
  });
}
