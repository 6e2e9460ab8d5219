// The hot path against the framework's floor: cached reads of the rows API against a bare route of
// the same build, embedded and in the production shape, in rotating rounds (bench/README.md).
//   npx tsx bench/hot-path.ts [--duration 8] [--connections 50] [--rounds 3] [--port-base N]
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  admin,
  cpuMs,
  descendants,
  headers,
  load,
  log,
  type Measure,
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
    duration: { type: "string", default: "8" },
    connections: { type: "string", default: "50" },
    rounds: { type: "string", default: "3" },
    "port-base": { type: "string" },
  },
});
const portBase = args["port-base"] === undefined ? undefined : Number(args["port-base"]);
const PORTS =
  portBase === undefined
    ? { embedded: 3660, production: 3661, google: 4660, upstash: 8092 }
    : { embedded: portBase, production: portBase + 1, google: portBase + 2, upstash: portBase + 3 };
const GOOGLE_PORT = PORTS.google;
const GOOGLE = `http://127.0.0.1:${GOOGLE_PORT}`;
const UPSTASH_PORT = PORTS.upstash;
const BENCH_DB = portBase === undefined ? "sheetapi_hotpath" : `sheetapi_hotpath_${portBase}`;
const opts = { duration: Number(args.duration), connections: Number(args.connections) };
const dir = mkdtempSync(join(tmpdir(), "sheetapi-hotpath-"));
const bareFile = join(dir, "bare.json");

const PATHS = [
  {
    name: "list",
    title: "cached GET list, 100 rows",
    path: "Hundred?limit=100",
    dynamicPath: "Hundred",
    target: { embedded: 0.85, production: 0.6 },
  },
  {
    name: "row",
    title: "cached GET one row",
    path: "Hundred/42",
    dynamicPath: "Hundred/42",
    target: { embedded: 0.9, production: 0.65 },
  },
] as const;

interface Instance {
  shape: "embedded" | "production";
  title: string;
  service: ReturnType<typeof startService>;
  /** The processes whose CPU time an answer costs. */
  pids: number[];
  /** Of those, the Upstash stand-in's (production shape): Upstash's share, on other machines in a deployment. */
  bridge?: number;
}

const nextServer = (launcher: number) =>
  descendants(launcher).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, "utf8").startsWith("next-server");
    } catch {
      return false;
    }
  });

interface Sample extends Measure {
  /** CPU ms of the instance's processes per answer. */
  cpu: number;
  /** CPU ms of the Upstash stand-in per answer (0 on embedded defaults). */
  bridgeCpu: number;
}

async function sample(title: string, url: string, { pids, bridge }: Instance): Promise<Sample> {
  const before = cpuMs(pids);
  const bridgeBefore = bridge ? cpuMs([bridge]) : 0;
  const m = await load(title, url, opts);
  const cpu = (cpuMs(pids) - before) / Math.max(1, m.total);
  const bridgeCpu = bridge ? (cpuMs([bridge]) - bridgeBefore) / Math.max(1, m.total) : 0;
  log(
    `  CPU ${(cpu * 1000).toFixed(0)} µs per answer${bridge ? ` (Upstash stand-in ${(bridgeCpu * 1000).toFixed(0)} µs)` : ""}`,
  );
  return { ...m, cpu, bridgeCpu };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const stops: (() => void)[] = [];
  try {
    const env = { BENCH_BARE_JSON_FILE: bareFile, SHEETAPI_BENCH_ROUTES: "1" };
    log(`embedded instance (builds first when the build is stale; data in ${dir})`);
    const embedded = startService(PORTS.embedded, GOOGLE_PORT, join(dir, "embedded"), env, { production: true });
    stops.push(embedded.stop);
    await waitFor(`${embedded.base}/health`, 600_000);
    await admin(GOOGLE, `/spreadsheets/${SHEET}/tabs`, { title: "Hundred", rows: rows(100, 7) });
    const instances: Instance[] = [
      {
        shape: "embedded",
        title: "embedded (PGlite, in-process store)",
        service: embedded,
        pids: nextServer(embedded.process.pid!),
      },
    ];

    if (await productionServicesReachable()) {
      log("production-shape instance: the real Postgres, emulators/upstash over the real Redis");
      const services = productionServices(BENCH_DB, UPSTASH_PORT);
      stops.push(services.stop);
      const production = startService(
        PORTS.production,
        GOOGLE_PORT,
        join(dir, "production"),
        { ...env, ...services.env },
        { production: true },
      );
      stops.push(production.stop);
      await waitFor(`${production.base}/health`, 240_000);
      instances.push({
        shape: "production",
        title: "production shape (Postgres, Upstash over Redis)",
        service: production,
        pids: [...nextServer(production.process.pid!), services.bridgePid],
        bridge: services.bridgePid,
      });
    } else log("Redis or Postgres not reachable: the production shape is skipped");

    for (const inst of instances)
      await fetch(`${inst.service.base}/api/${SHEET}/refresh-schema`, { method: "POST", headers });
    // The bare route answers the rows API's own bodies, byte for byte the same JSON; behind the
    // dynamic path, also with the headers the rows API set on them.
    const { bodies, headers: answerHeaders } = await saveBareAnswers(embedded.base, PATHS, bareFile);
    log(
      `bodies: ${PATHS.map((p) => `${p.name} ${JSON.stringify(bodies[p.name]).length} bytes, ${Object.keys(answerHeaders[p.name]!).length} headers of its own`).join("; ")}`,
    );

    const lines = [
      "| shape | path | bare route (median) | rows API (median) | rows API to the bare route min / **median** / max | bare answer with the rows API's headers, static path / dynamic path, to the bare route (median) | rows API to the static one (median) | CPU per answer, bare / static / dynamic / rows API (median) | of which the Upstash stand-in | CPU ratio to bare | target |",
      "|---|---|---|---|---|---|---|---|---|---|---|",
    ];
    for (const inst of instances) {
      const base = inst.service.base;
      for (const p of PATHS) {
        const sides = [
          { name: "bare", url: `${base}/api/bench/bare?body=${p.name}`, samples: [] as Sample[] },
          { name: "bare, same headers", url: `${base}/api/bench/bare-headers?body=${p.name}`, samples: [] as Sample[] },
          {
            name: "bare, same path and headers",
            url: `${base}/api/bench/bare-dynamic/${SHEET}/${p.dynamicPath}?body=${p.name}`,
            samples: [] as Sample[],
          },
          { name: "rows API", url: `${base}/api/v1/${SHEET}/${p.path}`, samples: [] as Sample[] },
        ];
        for (const side of sides)
          await load(`${inst.shape} warm-up ${side.name} ${p.name}`, side.url, { ...opts, duration: 2 });
        for (let r = 0; r < Number(args.rounds); r++) {
          // Rotate which side goes first, so drift and warm-up fall on each.
          for (let i = 0; i < sides.length; i++) {
            const side = sides[(i + r) % sides.length]!;
            side.samples.push(await sample(`${inst.shape} ${p.name} ${side.name}, round ${r + 1}`, side.url, inst));
          }
        }
        const [bare, staticBare, dynamicBare, ours] = sides.map((s) => s.samples) as [
          Sample[],
          Sample[],
          Sample[],
          Sample[],
        ];
        const ratios = ours.map((m, i) => m.rps / bare[i]!.rps).sort((a, b) => a - b);
        const toBare = (ms: Sample[]) => median(ms.map((m, i) => m.rps / bare[i]!.rps)).toFixed(2);
        const toStatic = median(ours.map((m, i) => m.rps / staticBare[i]!.rps));
        const errors = sides.flatMap((s) => s.samples).reduce((a, m) => a + m.errors, 0);
        const fmt = (ms: Measure[]) => `${median(ms.map((m) => m.rps))} req/s, p50 ${median(ms.map((m) => m.p50))} ms`;
        const cpu = (ms: Sample[]) => median(ms.map((m) => m.cpu));
        const us = (ms: number) => `${Math.round(ms * 1000)} µs`;
        lines.push(
          `| ${inst.title} | ${p.title} | ${fmt(bare)} | ${fmt(ours)} | ${ratios[0]!.toFixed(2)} / **${median(ratios).toFixed(2)}** / ${ratios.at(-1)!.toFixed(2)}${errors ? ` (${errors} errors)` : ""} | ${toBare(staticBare)} / ${toBare(dynamicBare)} | ${toStatic.toFixed(2)} | ${us(cpu(bare))} / ${us(cpu(staticBare))} / ${us(cpu(dynamicBare))} / ${us(cpu(ours))} | ${inst.bridge ? us(median(ours.map((m) => m.bridgeCpu))) : "-"} | ${(cpu(bare) / cpu(ours)).toFixed(2)} | >= ${p.target[inst.shape]} |`,
        );
      }
    }
    console.log(`\n${lines.join("\n")}\n`);
  } finally {
    for (const stop of stops.reverse()) stop();
  }
}

runBench(main);
