// Builds the app (`next build`, then the standalone server's assets) for `npm start` on embedded
// defaults when lib/cli/build-state.mjs finds the build stale.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { benchRoutes, BUILD_MARK, nextBin } from "./build-state.mjs";
import { copyStandaloneAssets } from "./standalone.mjs";

export function runNextBuild(root: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [nextBin, "build"], { cwd: root, env, stdio: "inherit" });
    // Stopped while building (Ctrl-C, the launcher stopping): the build stops too, not on its own.
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => child.kill(signal));
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`next build failed with exit code ${code}`));
      copyStandaloneAssets(root);
      writeFileSync(join(root, BUILD_MARK), JSON.stringify({ benchRoutes: benchRoutes(env) }));
      resolve();
    });
  });
}
