// The registry this project installs from serves only the Linux builds of packages that ship
// per-platform binaries (@next/swc-*, @tailwindcss/oxide-*, @unrs/resolver-binding-*). npm then
// leaves the other platforms' optional packages out of package-lock.json, and `npm ci` refuses
// the lock ("Missing: ... from lock file"). This adds those entries back, marked optional with
// their os/cpu, so npm skips them on Linux exactly as it would with a complete lock.
// Run after any `npm install` that changes dependencies: `node .ci/lock-platforms.mjs`.
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));
const packages = lock.packages;

const OS = ["android", "darwin", "freebsd", "linux", "win32", "openharmony", "wasm32"];
const CPU = {
  arm64: "arm64",
  x64: "x64",
  arm: "arm",
  ia32: "ia32",
  loong64: "loong64",
  ppc64: "ppc64",
  riscv64: "riscv64",
  s390x: "s390x",
  wasi: "wasm32",
};

function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.map((p) => CPU[p]).find(Boolean);
  if (!os || !cpu) return undefined;
  const entry = os === "wasm32" ? { cpu: ["wasm32"] } : { os: [os], cpu: [cpu] };
  if (name.includes("-musl")) entry.libc = ["musl"];
  else if (name.includes("-gnu")) entry.libc = ["glibc"];
  return entry;
}

let added = 0;
for (const [path, pkg] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const base = path ? `${path}/node_modules/${dep}` : `node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (packages[base] || packages[hoisted]) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    packages[hoisted] = { version, ...platform, optional: true, ...(pkg.dev ? { dev: true } : {}) };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: added ${added} optional platform entries`);
