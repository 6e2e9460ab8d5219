// Where a cached answer's CPU goes inside next-server: V8's profiler under load, CPU per answer by
// category, for the rows API or one of bench/hot-path.ts's floors (bench/README.md).
//   npx tsx bench/hot-path-profile.ts [--production] [--path list|row] [--target api|bare|floor|dynamic] [--seconds 10]
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  admin,
  descendants,
  headers,
  load,
  log,
  productionServices,
  productionServicesReachable,
  rows,
  runBench,
  saveBareAnswers,
  SHEET,
  startService,
  waitFor,
} from "./support";

const { values: args } = parseArgs({
  options: {
    production: { type: "boolean", default: false },
    path: { type: "string", default: "list" },
    target: { type: "string", default: "api" },
    seconds: { type: "string", default: "10" },
  },
});
const PATHS = {
  list: { name: "list", path: "Hundred?limit=100", dynamicPath: "Hundred" },
  row: { name: "row", path: "Hundred/42", dynamicPath: "Hundred/42" },
};
const GOOGLE_PORT = 4662;
const seconds = Number(args.seconds);

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
}

/** What a sampled frame is charged to. */
function category({ functionName, url }: { functionName: string; url: string }): string {
  if (url.includes("/.next/server/chunks/") && !url.includes("[root-of-the-server]") && !url.includes("[turbopack]"))
    return "the product's modules";
  if (url.includes("/.next/server/")) return "Next.js (the route's bundled runtime)";
  if (url.includes("node_modules/next/")) return "Next.js";
  if (url.includes("undici")) return "undici (Request, Response, Headers)";
  if (url.includes("async_hooks")) return "async hooks (AsyncLocalStorage)";
  if (url.includes("pglite") || url.startsWith("wasm:")) return "PGlite";
  if (["(garbage collector)", "(idle)", "(program)"].includes(functionName)) return functionName;
  if (!url) return `native: ${functionName || "(anonymous)"}`;
  if (url.startsWith("node:")) return "Node.js internals";
  return "other JavaScript";
}

/** µs of CPU per answer by category (idle left out), over `answers` answers. */
function breakdown(profile: CpuProfile, answers: number): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const name = category(byId.get(id)!.callFrame);
    totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  totals.delete("(idle)");
  return [...totals].map(([name, us]): [string, number] => [name, us / answers]).sort((a, b) => b[1] - a[1]);
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "sheetapi-profile-"));
  const stops: (() => void)[] = [];
  try {
    if (args.production && !(await productionServicesReachable()))
      throw new Error("--production needs Postgres on 5432 and Redis on 6379");
    const services = args.production ? productionServices("sheetapi_profile", 8094) : undefined;
    if (services) stops.push(services.stop);
    const env = {
      ...services?.env,
      BENCH_BARE_JSON_FILE: join(dir, "bare.json"),
      SHEETAPI_BENCH_ROUTES: "1",
      NODE_OPTIONS: `--import ${resolve("bench/profile-preload.mjs")}`,
      PROFILE_DIR: dir,
      PROFILE_MS: String(seconds * 1000),
    };
    log(`${args.production ? "production-shape" : "embedded"} instance (builds first when the build is stale)`);
    const service = startService(3664, GOOGLE_PORT, join(dir, "instance"), env, { production: true });
    stops.push(service.stop);
    await waitFor(`${service.base}/health`, 600_000);
    await admin(`http://127.0.0.1:${GOOGLE_PORT}`, `/spreadsheets/${SHEET}/tabs`, {
      title: "Hundred",
      rows: rows(100, 7),
    });
    await fetch(`${service.base}/api/${SHEET}/refresh-schema`, { method: "POST", headers });
    const p = PATHS[args.path as keyof typeof PATHS] ?? PATHS.list;
    await saveBareAnswers(service.base, [p], join(dir, "bare.json"));
    const urls: Record<string, string> = {
      api: `${service.base}/api/v1/${SHEET}/${p.path}`,
      bare: `${service.base}/api/bench/bare?body=${p.name}`,
      floor: `${service.base}/api/bench/bare-headers?body=${p.name}`,
      dynamic: `${service.base}/api/bench/bare-dynamic/${SHEET}/${p.dynamicPath}?body=${p.name}`,
    };
    const url = urls[args.target!];
    if (!url) throw new Error(`--target is api, bare, floor or dynamic; got ${args.target}`);
    await load("warm-up", url, { duration: 3, connections: 50 });

    const servers = descendants(service.process.pid!).filter((pid) =>
      readFileSync(`/proc/${pid}/comm`, "utf8").startsWith("next-server"),
    );
    if (servers.length !== 1) throw new Error(`expected one next-server process, found ${servers.length}`);
    log(`profiling next-server (pid ${servers[0]}) for ${seconds} s under load`);
    process.kill(servers[0]!, "SIGUSR2");
    // The load runs a little longer than the profile, so every sample is taken under it.
    const measure = await load("profiled load", url, { duration: seconds + 1, connections: 50 });
    const file = join(dir, `${servers[0]}.cpuprofile`);
    for (let waited = 0; !existsSync(file) && waited < 10_000; waited += 200)
      await new Promise((r) => setTimeout(r, 200));
    if (!existsSync(file)) throw new Error(`no profile written (${readdirSync(dir).join(", ")})`);
    const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
    const answers = measure.rps * seconds || 1;
    const rowsOut = breakdown(profile, answers);
    const total = rowsOut.reduce((t, [, us]) => t + us, 0);
    console.log(
      `\nCPU per answer in next-server, ${args.path}, ${args.target}, ${args.production ? "production shape" : "embedded defaults"} (${Math.round(answers)} answers profiled; total ${total.toFixed(0)} µs):`,
    );
    console.log("| where | µs per answer |\n|---|---|");
    for (const [name, us] of rowsOut.filter(([, us]) => us >= 0.5)) console.log(`| ${name} | ${us.toFixed(1)} |`);
    log(`profile kept: ${file}`);
  } finally {
    for (const stop of stops.reverse()) stop();
  }
}

runBench(main);
