// The worker, for deployments that run it apart from web instances (WEB_RUNS_WORKER=0): webhook
// delivery, the hourly sweep and the ledger roll-up, on Postgres only (README.md).
import { closeDatabase } from "@/db/client";
import { ConfigError, loadConfig } from "@/lib/env";
import { databaseProblemAtStart } from "@/lib/lifecycle/database-check";
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
  if (cfg.database.kind !== "postgres")
    fail(
      "The worker needs DATABASE_URL (Postgres): on the embedded database `npm start` runs the background work inside the server.",
    );
  const storeProblem = await limitStoreProblem(cfg.limitStore);
  if (storeProblem) fail(storeProblem.message);
  const databaseProblem = await databaseProblemAtStart(cfg.database.url, cfg.env.DATABASE_START_WAIT_MS);
  if (databaseProblem) fail(databaseProblem);
  await startDelivery();
  const rollUps = setInterval(() => void rollUpUsage().catch(() => undefined), cfg.env.USAGE_FLUSH_MS);
  const port = cfg.env.WORKER_METRICS_PORT;
  const host = cfg.env.HOST ?? (cfg.production ? "0.0.0.0" : "127.0.0.1");
  const metricsServer = port
    ? await serveMetrics(port, host).catch((err: unknown) =>
        fail(`WORKER_METRICS_PORT=${port}: ${(err as Error).message}`),
      )
    : undefined;
  if (port && !cfg.env.METRICS_TOKEN)
    log.warn({ port }, "worker: METRICS_TOKEN is not set, so GET /metrics answers 404 (as on the web instances)");
  log.info(
    { roll_up_ms: cfg.env.USAGE_FLUSH_MS, metrics_port: port },
    "worker: delivering webhooks, sweeping old events, rolling usage up",
  );

  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      clearInterval(rollUps);
      metricsServer?.close();
      void (async () => {
        await stopQueue().catch((err: unknown) =>
          log.warn({ ...errorFields(err) }, "worker: the queue did not stop cleanly"),
        );
        const failed = await flushAll();
        await closeDatabase().catch(() => undefined);
        log.info({ failed }, "worker: stopped");
        process.exit(failed.length ? 1 : 0);
      })();
    });
  }
}

// Anything else that stops the start is one line too, not a stack trace.
main().catch((err: unknown) =>
  fail(`The worker could not start: ${(err instanceof Error ? err.message : String(err)).split("\n")[0]}`),
);
