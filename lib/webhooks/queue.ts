// The delivery queue: pg-boss holds what is due and when, so a waiting delivery survives restarts
// and any instance picks it up; jobs only say "this stream has something due". Its pools and why a
// job run twice delivers nothing twice: README.md ("The queue").
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

/** Streams this process drains at once: each holds its slot only until its own drain ends. */
const SLOTS = 100;
/** Jobs taken per fetch, at most. */
const FETCH_MAX = 20;
/** How often an idle pool looks for due jobs (a wake in this process is seen at once). */
const POLL_MS = 500;

const queue = perProcess("webhooks:queue", () => ({
  boss: undefined as Promise<PgBoss> | undefined,
  handler: undefined as Handler | undefined,
  /** The workers' pool, running until the handler is unset. */
  pool: undefined as Promise<number> | undefined,
  /** Pools waiting for a turn: called on a wake and when a slot frees. */
  turns: new Set<() => void>(),
}));

const nudge = () => {
  for (const turn of [...queue.turns]) turn();
};

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
  await boss.createQueue(STREAM_QUEUE, {
    name: STREAM_QUEUE,
    policy: "standard",
    retryLimit: 10,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 300,
  });
  return boss;
}

export function getBoss(): Promise<PgBoss> {
  queue.boss ??= open().catch((err: unknown) => {
    queue.boss = undefined;
    throw err;
  });
  return queue.boss;
}

/** Whether the queue is open in this process (stopQueue closes it; the next use opens it again). */
export const queueOpen = () => queue.boss !== undefined;

/** Says that these streams have something due (now, or at `startAfter`). */
export async function wakeStreams(streams: StreamRef[], startAfter?: Date): Promise<void> {
  if (!streams.length) return;
  const boss = await getBoss();
  for (const s of streams) await boss.send(STREAM_QUEUE, { ...s }, startAfter ? { startAfter } : {});
  if (!startAfter) nudge();
}

/** Runs one job's drain and settles the job: completed, or failed for pg-boss to offer again (a delivered event is not sent twice). */
async function settle(boss: PgBoss, job: PgBoss.Job<StreamRef>, handler: Handler): Promise<void> {
  const ok = await handler(job.data).then(
    () => true,
    () => false,
  );
  await (ok ? boss.complete(STREAM_QUEUE, job.id) : boss.fail(STREAM_QUEUE, job.id)).catch((err: unknown) =>
    log.warn({ ...errorFields(err) }, "webhooks: a job could not be settled"),
  );
}

/** Waits until a slot frees, a wake comes or the poll interval passes. */
const nextTurn = (ms: number) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      queue.turns.delete(done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    queue.turns.add(done);
  });

/**
 * Runs due jobs each on its own, up to `slots` at once: a job's slot frees when its own drain
 * ends and is refilled at once, so a slow receiver holds one slot, never a batch of others'
 * deliveries waiting for it (fair shares per account and endpoint: shares.ts). Goes on while
 * `goOn(idle)` says so (idle: nothing due, nothing running), then waits for the drains started.
 */
async function runPool(
  boss: PgBoss,
  handler: Handler,
  slots: number,
  goOn: (idle: boolean) => boolean,
): Promise<number> {
  const running = new Set<Promise<void>>();
  let ran = 0;
  for (;;) {
    const want = Math.min(slots - running.size, FETCH_MAX);
    const jobs =
      want > 0
        ? await boss
            .fetch<StreamRef>(STREAM_QUEUE, { batchSize: want })
            .catch((err: unknown) => (log.warn({ ...errorFields(err) }, "webhooks: fetching due jobs failed"), []))
        : [];
    for (const job of jobs) {
      const run: Promise<void> = settle(boss, job, handler).finally(() => {
        running.delete(run);
        nudge();
      });
      running.add(run);
    }
    ran += jobs.length;
    if (!goOn(!jobs.length && !running.size)) break;
    // A full fetch: more may be due now.
    if (!want || jobs.length < want) await nextTurn(POLL_MS);
  }
  await Promise.allSettled([...running]);
  return ran;
}

/** Starts this process's delivery pool (idempotent): up to `slots` streams drained at once, each on its own. */
export async function startWorkers(handler: Handler, { slots = SLOTS } = {}): Promise<void> {
  if (queue.handler) return;
  queue.handler = handler;
  const boss = await getBoss();
  queue.pool = runPool(boss, handler, slots, () => queue.handler === handler);
}

/**
 * Runs the due jobs once, without a standing pool (the serverless shape: a cron route calls it):
 * each on its own, up to `slots` at once, until none is due or `budgetMs` is spent, then waits for
 * the drains started. A failed drain fails its job, which pg-boss offers again later. Answers how
 * many jobs ran.
 */
export async function runDueJobs(
  handler: Handler,
  { budgetMs, slots = 50 }: { budgetMs: number; slots?: number },
): Promise<number> {
  const deadline = Date.now() + budgetMs;
  return runPool(await getBoss(), handler, slots, (idle) => !idle && Date.now() < deadline);
}

/** Stops the pool (letting drains under way end, 5 s at most) and the queue's connection (tests; a server stopping). */
export async function stopQueue(): Promise<void> {
  const pending = queue.boss;
  const pool = queue.pool;
  queue.boss = undefined;
  queue.handler = undefined;
  queue.pool = undefined;
  nudge();
  if (pool) await Promise.race([pool, new Promise((r) => setTimeout(r, 5000).unref())]);
  if (pending) await (await pending.catch(() => undefined))?.stop({ graceful: true, wait: true, timeout: 5000 });
}

/** Jobs waiting (due or later) in the queue. */
export async function queuedJobs(): Promise<number> {
  return (await getBoss()).getQueueSize(STREAM_QUEUE);
}
