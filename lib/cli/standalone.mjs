// The standalone server `next build` makes, with the static assets and public/ copied beside
// server.js, since this service serves them itself (README.md).
import { cpSync, existsSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const STANDALONE_DIR = join(".next", "standalone");
export const STANDALONE_SERVER = join(STANDALONE_DIR, "server.js");

export const hasStandaloneServer = (root) => existsSync(join(root, STANDALONE_SERVER));

export function copyStandaloneAssets(root) {
  if (!hasStandaloneServer(root))
    throw new Error(`${STANDALONE_SERVER} is missing: next.config.ts must set output: "standalone"`);
  for (const [from, to] of [
    [join(".next", "static"), join(STANDALONE_DIR, ".next", "static")],
    ["public", join(STANDALONE_DIR, "public")],
  ]) {
    rmSync(join(root, to), { recursive: true, force: true });
    if (existsSync(join(root, from))) cpSync(join(root, from), join(root, to), { recursive: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(fileURLToPath(import.meta.url), "..", "..", "..");
  copyStandaloneAssets(root);
  console.log(`▸ Standalone server ready: node ${STANDALONE_SERVER}`);
}
