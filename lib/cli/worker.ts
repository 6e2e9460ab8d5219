// `npm run worker`: the background work in a process of its own, for deployments that run web
// instances and workers apart (the web instances then set WEB_RUNS_WORKER=0): webhook delivery
// and retries (pg-boss), the hourly retention sweep, and the roll-up of the usage ledger into
// Postgres. SIGTERM stops the queue (deliveries under way finish), rolls the ledger up a last
// time and exits. WORKER_METRICS_PORT serves its GET /metrics. Postgres only: the embedded
// database opens in one process at a time, and `npm start` runs this work inside the server.
import { closeDatabase, getDatabaseHandle } from "@/db/client";
import { ConfigError, loadConfig } from "@/lib/env";
import { flushAll } from "@/lib/lifecycle/flushes";
import { limitStoreProblem } from "@/lib/store/store-check";
import { rollUpUsage } from "@/lib/usage/usage-ledger";
import { errorFields, log } from "@/lib/log";
import { serveMetrics } from "@/lib/routes/metrics-server";
import { startDelivery } from "@/lib/webhooks/deliver";
import { stopQueue } from "@/lib/webhooks/queue";

function fail(message: string): never {
  console.error(`✗ ${message}`);
  process.exit(1);
}

async function main(): Promise<void> {
  let cfg;
  try {
    cfg = loadConfig();
  } catch (err) {
    fail(err instanceof ConfigError ? err.message : String(err));
  }
  if (cfg.database.kind !== "postgres") fail("The worker needs DATABASE_URL (Postgres): on the embedded database `npm start` runs the background work inside the server.");
  const storeProblem = await limitStoreProblem(cfg.limitStore);
  if (storeProblem) fail(storeProblem.message);
  getDatabaseHandle();
  await startDelivery();
  const rollUps = setInterval(() => void rollUpUsage().catch(() => undefined), cfg.env.USAGE_FLUSH_MS);
  const port = cfg.env.WORKER_METRICS_PORT;
  const host = cfg.env.HOST ?? (cfg.production ? "0.0.0.0" : "127.0.0.1");
  const metricsServer = port ? await serveMetrics(port, host).catch((err: unknown) => fail(`WORKER_METRICS_PORT=${port}: ${(err as Error).message}`)) : undefined;
  if (port && !cfg.env.METRICS_TOKEN) log.warn({ port }, "worker: METRICS_TOKEN is not set, so GET /metrics answers 404 (as on the web instances)");
  log.info({ roll_up_ms: cfg.env.USAGE_FLUSH_MS, metrics_port: port }, "worker: delivering webhooks, sweeping old events, rolling usage up");

  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      clearInterval(rollUps);
      metricsServer?.close();
      void (async () => {
        await stopQueue().catch((err: unknown) => log.warn({ ...errorFields(err) }, "worker: the queue did not stop cleanly"));
        const failed = await flushAll();
        await closeDatabase().catch(() => undefined);
        log.info({ failed }, "worker: stopped");
        process.exit(failed.length ? 1 : 0);
      })();
    });
  }
}

void main();
