// The write lock's tail: 4 writers on one tab, in three store shapes, p99 / p50 per measure
// (issue 17's target; bench/README.md).
//   npx tsx bench/write-lock.ts [--ops 12] [--rounds 3]
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { log, percentile, runBench } from "./support";

const { values: args } = parseArgs({
  options: {
    ops: { type: "string", default: "12" },
    rounds: { type: "string", default: "3" },
    worker: { type: "string" },
  },
});
const OPS = Number(args.ops);
const ROUNDS = Number(args.rounds);
const WRITERS = 4;

type Go = { sheetId: string; writers: number[]; ops: number };

/** A worker process: reads the tab's model, makes one warm-up write, then on "go" runs its writers. */
async function worker() {
  // Messages are queued from the start: the parent sends the setup right away.
  const inbox: unknown[] = [];
  const waiting: ((m: unknown) => void)[] = [];
  process.on("message", (m) => (waiting.length ? waiting.shift()!(m) : inbox.push(m)));
  const next = () => new Promise<unknown>((r) => (inbox.length ? r(inbox.shift()) : waiting.push(r)));
  const { withGoogle } = await import("@/lib/sheets/sheet-access");
  const { readSheetModel } = await import("@/lib/sheets/read/read-model");
  const { createRows } = await import("@/lib/sheets/write/create-rows");
  const { updateRow } = await import("@/lib/sheets/write/update-row");
  const setup = (await next()) as Go;
  const sheet = {
    id: setup.sheetId,
    access: "service_account" as const,
    refreshTokenCiphertext: null,
    cacheTtlSeconds: 10,
    maxStaleSeconds: 0,
    writable: true,
  };
  const model = (await withGoogle(sheet, "spreadsheets.get", (c) => readSheetModel(c.sheets, sheet.id))).tabs[0]!;
  await updateRow({ sheet, tab: model, rowId: String(100 + setup.writers[0]!), body: { note: "warm" } });
  process.send!({ ready: true });
  await next();
  const ms: number[] = [];
  let failed = 0;
  await Promise.all(
    setup.writers.map(async (w) => {
      for (let i = 0; i < setup.ops; i++) {
        const t0 = performance.now();
        await updateRow({
          sheet,
          tab: model,
          rowId: String(1 + w * setup.ops + i),
          body: { qty: w, note: `w${w} #${i}` },
        }).catch(() => failed++);
        ms.push(performance.now() - t0);
      }
    }),
  );
  process.send!({ ms, failed });
  // Then, when asked, creates one after another (the parent counts their Google calls).
  await next();
  for (let i = 0; i < setup.ops; i++) await createRows({ sheet, tab: model, body: { name: `new ${i}` } });
  process.send!({ created: setup.ops });
  await next();
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "sheetapi-bench-lock-"));
  const { startGoogleEmulator } = await import("../emulators/google/server");
  const { startUpstashEmulator } = await import("../emulators/upstash/server");
  const google = await startGoogleEmulator();
  const upstash = await startUpstashEmulator({
    redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    token: "bench-lock",
  });
  const base = {
    ...process.env,
    GOOGLE_API_ROOT_URL: google.url,
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    UPSTASH_REDIS_REST_URL: "",
    UPSTASH_REDIS_REST_TOKEN: "",
    LOG_LEVEL: "fatal",
    GOOGLE_QUOTA_PER_IDENTITY_MINUTE: "1000000",
    GOOGLE_QUOTA_PER_PROJECT_MINUTE: "1000000",
  };
  Object.assign(process.env, base);
  const { EMULATOR_SERVICE_ACCOUNT } = await import("../emulators/google/seed");
  const { uploadServiceAccountKey } = await import("../testing/google");
  const { config } = await import("@/lib/env");
  // Generates the data directory's key once; every worker reads the same one.
  await uploadServiceAccountKey(google.url, config().google.serviceAccount);
  const redis = { UPSTASH_REDIS_REST_URL: upstash.url, UPSTASH_REDIS_REST_TOKEN: upstash.token };
  const shapes: { title: string; env: Record<string, string>; instances: number }[] = [
    { title: "one instance, embedded store", env: {}, instances: 1 },
    { title: "one instance, Upstash over Redis", env: redis, instances: 1 },
    { title: "two instances sharing Upstash over Redis", env: redis, instances: 2 },
  ];

  const newSheet = async () => {
    const grid = [
      ["id", "name", "qty", "note"],
      ...Array.from({ length: 200 }, (_, i) => [i + 1, `row ${i + 1}`, i, ""]),
    ];
    const res = await fetch(`${google.url}/__admin/spreadsheets`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        title: "Bench",
        members: { [EMULATOR_SERVICE_ACCOUNT]: "writer" },
        tabs: [{ title: "Items", rows: grid }],
      }),
    });
    return String(((await res.json()) as { spreadsheetId: string }).spreadsheetId);
  };
  const calls = () => [...google.calls.values()].reduce((a, b) => a + b, 0);
  const message = (child: ChildProcess) =>
    new Promise<Record<string, unknown>>((r) => child.once("message", (m) => r(m as Record<string, unknown>)));

  async function measure(shape: (typeof shapes)[number]) {
    const sheetId = await newSheet();
    const children = Array.from({ length: shape.instances }, () =>
      fork(import.meta.filename, ["--worker", "1"], { execArgv: ["--import", "tsx"], env: { ...base, ...shape.env } }),
    );
    try {
      const per = WRITERS / shape.instances;
      children.forEach((c, i) =>
        c.send({ sheetId, writers: Array.from({ length: per }, (_, w) => i * per + w), ops: OPS } satisfies Go),
      );
      await Promise.all(children.map(message));
      const c0 = calls();
      const results = children.map(message);
      for (const c of children) c.send("go");
      const done = await Promise.all(results);
      const ms = done.flatMap((d) => d.ms as number[]).sort((a, b) => a - b);
      const failed = done.reduce((a, d) => a + (d.failed as number), 0);
      const p50 = percentile(ms, 50);
      const p99 = percentile(ms, 99);
      const perWrite = (calls() - c0) / ms.length;
      // Creates, one at a time on the first instance: Google calls per create.
      const c1 = calls();
      const created = message(children[0]!);
      children[0]!.send("create");
      await created;
      const perCreate = (calls() - c1) / OPS;
      log(
        `${shape.title}: p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, ratio ${(p99 / p50).toFixed(2)}, ${perWrite.toFixed(2)} Google calls an update, ${perCreate.toFixed(2)} a create, ${failed} failed of ${ms.length}`,
      );
      return { p50, p99, ratio: p99 / p50, perWrite, perCreate, failed, n: ms.length };
    } finally {
      for (const c of children) c.kill();
    }
  }

  const results = new Map<string, Awaited<ReturnType<typeof measure>>[]>();
  for (let round = 0; round < ROUNDS; round++) {
    // The order rotates each round, so drift over the run hits every shape.
    for (let i = 0; i < shapes.length; i++) {
      const shape = shapes[(i + round) % shapes.length]!;
      log(`round ${round + 1}: ${shape.title}`);
      results.set(shape.title, [...(results.get(shape.title) ?? []), await measure(shape)]);
    }
  }
  const mmm = (xs: number[], digits: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return `${s[0]!.toFixed(digits)} / ${s[Math.floor(s.length / 2)]!.toFixed(digits)} / ${s.at(-1)!.toFixed(digits)}`;
  };
  console.log(`\n${WRITERS} writers, ${OPS} updates each, ${ROUNDS} rounds; min / median / max over the rounds\n`);
  console.log(
    "| shape | p99 / p50 | p50 ms | p99 ms | Google calls an update (4 at once) | Google calls a create (one at a time) | failed |\n|---|---|---|---|---|---|---|",
  );
  for (const shape of shapes) {
    const r = results.get(shape.title)!;
    console.log(
      `| ${shape.title} | **${mmm(
        r.map((x) => x.ratio),
        2,
      )}** | ${mmm(
        r.map((x) => x.p50),
        0,
      )} | ${mmm(
        r.map((x) => x.p99),
        0,
      )} | ${mmm(
        r.map((x) => x.perWrite),
        2,
      )} | ${mmm(
        r.map((x) => x.perCreate),
        2,
      )} | ${r.reduce((a, x) => a + x.failed, 0)} of ${r.reduce((a, x) => a + x.n, 0)} |`,
    );
  }
  await upstash.stop();
  await google.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

if (args.worker)
  void worker().then(
    () => process.exit(0),
    (err) => (console.error(err), process.exit(1)),
  );
else runBench(main);
