// The delivery queue: pg-boss (a Postgres-backed job queue) holds what is due and when, so a
// delivery waiting for its next attempt survives restarts and is picked up by any instance. It
// runs on the real Postgres through its own small pool, and on the embedded PGlite through the
// service's own connection (pg-boss takes any client that runs SQL). Jobs only say "this stream
// has something due": the deliveries table holds the order, attempts and the log, so a job that
// runs twice or late delivers nothing twice (deliver.ts holds each delivery under a lease).
import PgBoss from "pg-boss";
import type { PGlite } from "@electric-sql/pglite";
import { getDatabaseHandle } from "@/db/client";
import { errorFields, log } from "@/lib/log";
import { perProcess } from "@/lib/per-process";

export const STREAM_QUEUE = "webhook-streams";

/** An endpoint's stream: the deliveries of one row (or one tab's schema), kept in event order. */
export interface StreamRef {
  endpointId: string;
  stream: string;
}

type Handler = (stream: StreamRef) => Promise<void>;

const queue = perProcess("webhooks:queue", () => ({
  boss: undefined as Promise<PgBoss> | undefined,
  workers: [] as string[],
  handler: undefined as Handler | undefined,
}));

/** pg-boss over PGlite: one-statement queries are prepared, scripts (its migrations, locked plans) run whole. */
function pgliteAdapter(client: PGlite): PgBoss.Db {
  return {
    async executeSql(text, values) {
      if (values?.length) return client.query(text, values);
      const results = await client.exec(text);
      return results[results.length - 1] ?? { rows: [] };
    },
  };
}

async function open(): Promise<PgBoss> {
  const handle = getDatabaseHandle();
  const common = { schedule: false, supervise: true } as const;
  const boss =
    handle.kind === "postgres"
      ? new PgBoss({ ...common, connectionString: handle.url, max: 3, application_name: "sheetapi-webhooks" })
      : new PgBoss({ ...common, db: pgliteAdapter((handle.db as unknown as { $client: PGlite }).$client) });
  boss.on("error", (err) => log.warn({ ...errorFields(err) }, "webhooks: queue error"));
  await boss.start();
  // A failed or expired job (a crash mid-delivery) is tried again; the stream's own schedule lives in deliver.ts.
  await boss.createQueue(STREAM_QUEUE, { name: STREAM_QUEUE, policy: "standard", retryLimit: 10, retryDelay: 30, retryBackoff: true, expireInSeconds: 300 });
  return boss;
}

export function getBoss(): Promise<PgBoss> {
  queue.boss ??= open().catch((err: unknown) => {
    queue.boss = undefined;
    throw err;
  });
  return queue.boss;
}

/** Says that these streams have something due (now, or at `startAfter`). */
export async function wakeStreams(streams: StreamRef[], startAfter?: Date): Promise<void> {
  if (!streams.length) return;
  const boss = await getBoss();
  for (const s of streams) await boss.send(STREAM_QUEUE, { ...s }, startAfter ? { startAfter } : {});
  if (!startAfter) for (const id of queue.workers) boss.notifyWorker(id);
}

/**
 * Starts this process's workers (idempotent). Each takes up to `batch` due jobs per fetch and
 * drains their streams side by side, so up to `workers` x `batch` streams are sent at once; a
 * stream's own deliveries stay one after another (deliver.ts).
 */
export async function startWorkers(handler: Handler, { workers = 2, batch = 50 } = {}): Promise<void> {
  if (queue.handler) return;
  queue.handler = handler;
  const boss = await getBoss();
  for (let i = 0; i < workers; i++) {
    const id = await boss.work<StreamRef>(STREAM_QUEUE, { pollingIntervalSeconds: 0.5, batchSize: batch }, async (jobs) => {
      const results = await Promise.allSettled(jobs.map((job) => queue.handler?.(job.data)));
      // A failed drain fails the batch: pg-boss tries its jobs again (a delivered event is not sent twice).
      const failed = results.find((r) => r.status === "rejected");
      if (failed) throw (failed as PromiseRejectedResult).reason;
    });
    queue.workers.push(id);
  }
}

/**
 * Runs the due jobs once, without workers polling (the serverless shape: a cron route calls it):
 * fetches up to `batch` at a time until none is due or `budgetMs` is spent. A failed drain fails
 * its job, which pg-boss offers again later. Answers how many jobs ran.
 */
export async function runDueJobs(handler: Handler, { budgetMs, batch = 50 }: { budgetMs: number; batch?: number }): Promise<number> {
  const boss = await getBoss();
  const deadline = Date.now() + budgetMs;
  let ran = 0;
  while (Date.now() < deadline) {
    const jobs = await boss.fetch<StreamRef>(STREAM_QUEUE, { batchSize: batch });
    if (!jobs.length) break;
    const results = await Promise.allSettled(jobs.map((job) => handler(job.data)));
    const done = jobs.filter((_, i) => results[i]!.status === "fulfilled").map((job) => job.id);
    const failed = jobs.filter((_, i) => results[i]!.status === "rejected").map((job) => job.id);
    if (done.length) await boss.complete(STREAM_QUEUE, done);
    if (failed.length) await boss.fail(STREAM_QUEUE, failed);
    ran += jobs.length;
  }
  return ran;
}

/** Stops the workers and the queue's connection (tests; a server stopping). */
export async function stopQueue(): Promise<void> {
  const pending = queue.boss;
  queue.boss = undefined;
  queue.handler = undefined;
  queue.workers = [];
  if (pending) await (await pending.catch(() => undefined))?.stop({ graceful: true, wait: true, timeout: 5000 });
}

/** Jobs waiting (due or later) in the queue. */
export async function queuedJobs(): Promise<number> {
  return (await getBoss()).getQueueSize(STREAM_QUEUE);
}
