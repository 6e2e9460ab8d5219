// Google calls of a fleet, and busy sheets served with 1 and 3 Google identities (issue 38,
// targets 4 and 5; bench/README.md). Needs the real Postgres and Redis on loopback.
//   npx tsx bench/fleet-quota.ts [--seconds 30] [--reads-per-second 10]
import { fork, type ChildProcess } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startGoogleEmulator } from "@/emulators/google/server";
import { uploadServiceAccountKey } from "@/testing/google";
import { log, productionServices, productionServicesReachable, runBench } from "./support";

const { values: args } = parseArgs({
  options: { seconds: { type: "string", default: "30" }, "reads-per-second": { type: "string", default: "10" } },
});
const SECONDS = Number(args.seconds);
const PAUSE_MS = 1000 / Number(args["reads-per-second"]);
const UPSTASH_PORT = 3642;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Instance {
  ask<T>(message: object): Promise<T>;
  stop(): void;
}

/** A service instance in its own process (bench/fleet-instance.ts), ready to answer. */
async function startInstance(env: Record<string, string>): Promise<Instance> {
  const child: ChildProcess = fork("bench/fleet-instance.ts", [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let next = 1;
  const ready = new Promise<void>((resolve) => waiting.set(0, { resolve: () => resolve(), reject: () => undefined }));
  child.on("message", (m: { id: number; result?: unknown; error?: string }) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.error) w?.reject(new Error(m.error));
    else w?.resolve(m.result);
  });
  await ready;
  return {
    ask: <T>(message: object) =>
      new Promise<T>((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, ...message });
      }),
    stop: () => child.kill(),
  };
}

type Sheet = { sheetId: string; key: string; serviceAccount: string };
type Read = { status: number; cache: string | null };

async function main() {
  if (!(await productionServicesReachable())) throw new Error("needs Postgres on 5432 and Redis on 6379");
  const google = await startGoogleEmulator({ port: 3641 });
  const accounts = [1, 2, 3].map((n) => ({
    client_email: `sheetapi-bench-${n}@sheetapi-local.iam.gserviceaccount.com`,
    private_key: generateKeyPairSync("rsa", { modulusLength: 2048 })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString(),
  }));
  for (const a of accounts)
    await uploadServiceAccountKey(google.url, { email: a.client_email, privateKey: a.private_key });
  const calls = (method: string) => google.calls.get(method) ?? 0;
  const sheetsReads = () => calls("values.get") + calls("values.batchGet");
  const stops: (() => void)[] = [() => void google.stop()];
  try {
    // 1. One fleet.
    const shared = productionServices("sheetapi_fleet_bench", UPSTASH_PORT);
    stops.push(shared.stop);
    await sleep(1500); // the Upstash bridge starts
    const env = {
      ...shared.env,
      DATA_DIR: mkdtempSync(join(tmpdir(), "sheetapi-fleet-")),
      GOOGLE_API_ROOT_URL: google.url,
      NODE_ENV: "development",
      RATE_LIMIT_MULTIPLIER: "100",
      GOOGLE_SERVICE_ACCOUNTS: JSON.stringify(accounts.slice(0, 1)),
    };
    const a = await startInstance(env); // migrates the database first
    const b = await startInstance(env);
    stops.push(a.stop, b.stop);
    const busy = async (instances: Instance[], sheet: Sheet) => {
      await Promise.all(instances.map((i) => i.ask<Read>({ op: "read", ...sheet }))); // each instance's first copy
      google.calls.clear();
      const until = Date.now() + SECONDS * 1000;
      let served = 0;
      for (let turn = 0; Date.now() < until; turn++) {
        const read = await instances[turn % instances.length]!.ask<Read>({ op: "read", ...sheet });
        if (read.status === 200) served++;
        await sleep(PAUSE_MS);
      }
      return { served, reads: sheetsReads(), drive: calls("files.get") };
    };
    log(
      `busy unchanged sheet, ${SECONDS} s at ${args["reads-per-second"]} reads/s (TTL 10 s, Drive check interval 2 s), after each instance's first read`,
    );
    const one = await busy([a], await a.ask<Sheet>({ op: "sheet" }));
    log(`  1 instance:  ${one.served} answers, ${one.reads} Sheets reads, ${one.drive} Drive checks`);
    const two = await busy([a, b], await a.ask<Sheet>({ op: "sheet" }));
    log(`  2 instances: ${two.served} answers, ${two.reads} Sheets reads, ${two.drive} Drive checks`);
    log(`  Drive checks per sheet per 2 s interval across 2 instances: ${(two.drive / (SECONDS / 2)).toFixed(2)}`);
    a.stop();
    b.stop();

    // 2. Many identities: each run on its own database (no accounts yet) and the in-process limit
    // store (every quota window empty; registration reads outside the guard).
    for (const identities of [1, 3]) {
      const db = productionServices(`sheetapi_ids_bench_${identities}`, UPSTASH_PORT + identities);
      stops.push(db.stop);
      await sleep(1500);
      const instance = await startInstance({
        DATABASE_URL: db.env.DATABASE_URL!,
        UPSTASH_REDIS_REST_URL: "",
        DATA_DIR: mkdtempSync(join(tmpdir(), "sheetapi-ids-")),
        GOOGLE_API_ROOT_URL: google.url,
        NODE_ENV: "development",
        RATE_LIMIT_MULTIPLIER: "100",
        GOOGLE_QUOTA_WAIT_MS: "0",
        GOOGLE_SERVICE_ACCOUNTS: JSON.stringify(accounts.slice(0, identities)),
      });
      stops.push(instance.stop);
      const sheets: Sheet[] = [];
      for (let i = 0; i < 30; i++) sheets.push(await instance.ask<Sheet>({ op: "sheet" }));
      google.calls.clear();
      let servedSheets = 0;
      let refused: Read | undefined;
      for (const sheet of sheets) {
        for (let r = 0; r < 6 && !refused; r++) {
          const read = await instance.ask<Read>({ op: "read", ...sheet, fresh: true });
          if (read.status !== 200 || read.cache !== "MISS") refused = read;
        }
        if (refused) break;
        servedSheets++;
      }
      const perAddress = accounts
        .slice(0, identities)
        .map((acc) => sheets.filter((s) => s.serviceAccount === acc.client_email).length);
      log(
        `${identities} identit${identities === 1 ? "y" : "ies"}: ${servedSheets} busy sheets served before the first refusal (${refused ? `${refused.status} ${refused.cache ?? ""}` : "none"}); ${sheetsReads()} Sheets reads; sheets per address ${perAddress.join("/")}`,
      );
      instance.stop();
    }
  } finally {
    for (const stop of stops.reverse()) {
      try {
        stop();
      } catch {
        // already gone
      }
    }
  }
}

runBench(main);
