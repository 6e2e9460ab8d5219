// Stops a server under traffic and compares the usage the service recorded with the answers its
// clients received. `--signal TERM`: every instance is then stopped the ordinary way (SIGTERM),
// and the usage must equal the answers exactly (nothing lost, nothing counted twice). `--signal
// KILL`: the victim is killed (-9) and the others keep serving; the usage must reach at least
// the answers received, and exceed them by no more than the requests cut off by the kill. The
// sheet's stats are held to the same bounds: every read answered 200 was served from the cache or
// from Google, and counted as such.
//   npx tsx .ci/stop-drill.ts --urls http://127.0.0.1:3501,http://127.0.0.1:3502 --path /api/v1/... \
//     --key shk_... --database postgres://... --victim <pid> --signal TERM --stop <pid>,<pid>
import { parseArgs } from "node:util";
import postgres from "postgres";

const { values: o } = parseArgs({
  options: {
    urls: { type: "string" },
    path: { type: "string" },
    key: { type: "string" },
    database: { type: "string" },
    victim: { type: "string" },
    signal: { type: "string", default: "TERM" },
    /** Pids stopped with SIGTERM once the traffic ends (TERM: every instance, the victim included). */
    stop: { type: "string", default: "" },
    seconds: { type: "string", default: "8" },
    at: { type: "string", default: "3" },
    clients: { type: "string", default: "24" },
    /** How long usage may take to arrive after the traffic (the roll-up of a killed instance's counts). */
    settle: { type: "string", default: "30" },
  },
});
const urls = o.urls!.split(",");
const signal = o.signal === "KILL" ? "SIGKILL" : "SIGTERM";
const sql = postgres(o.database!, { max: 1, onnotice: () => {} });
const usageTotal = async () => Number((await sql`select coalesce(sum(count), 0)::int as n from usage_daily`)[0]!.n);
const readsTotal = async () =>
  Number(
    (await sql`select coalesce(sum(cache_hits + cache_misses + stale_served), 0)::int as n from sheet_stats_daily`)[0]!
      .n,
  );
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const before = await usageTotal();
const readsBefore = await readsTotal();
const received = new Map<number, number>();
let cutOff = 0;
let refused = 0;
let running = true;
let firstRefusal: string | undefined;
let next = 0;

async function client(): Promise<void> {
  while (running) {
    const url = urls[next++ % urls.length]!;
    try {
      const res = await fetch(`${url}${o.path}`, {
        headers: { "X-API-Key": o.key! },
        signal: AbortSignal.timeout(30_000),
      });
      const body = await res.text();
      received.set(res.status, (received.get(res.status) ?? 0) + 1);
      if (res.status !== 200) firstRefusal ??= `${res.status} ${body.slice(0, 300)}`;
    } catch (err) {
      const code = (err as { cause?: { code?: string } }).cause?.code;
      // Refused: never reached a server. Anything else (reset, closed) was cut off under way.
      if (code === "ECONNREFUSED") refused++;
      else cutOff++;
      await sleep(20);
    }
  }
}

const victim = Number(o.victim);
const clients = Array.from({ length: Number(o.clients) }, client);
await sleep(Number(o.at) * 1000);
const sentBefore = [...received.values()].reduce((a, b) => a + b, 0);
process.kill(victim, signal);
console.log(`${signal} to ${victim} after ${sentBefore} answers`);
await sleep((Number(o.seconds) - Number(o.at)) * 1000);
running = false;
await Promise.all(clients);

const stops = o.stop ? o.stop.split(",").map(Number) : [];
for (const pid of stops) if (alive(pid)) process.kill(pid, "SIGTERM");
for (const pid of [victim, ...stops]) {
  const deadline = Date.now() + 90_000;
  while (alive(pid) && Date.now() < deadline) await sleep(100);
  if (alive(pid)) throw new Error(`process ${pid} did not stop within 90 s`);
}

const answers = [...received.values()].reduce((a, b) => a + b, 0);
const byStatus = Object.fromEntries([...received.entries()].sort());
const served = received.get(200) ?? 0;
let usage = (await usageTotal()) - before;
let reads = (await readsTotal()) - readsBefore;
const settleBy = Date.now() + Number(o.settle) * 1000;
while ((usage < answers || reads < served) && Date.now() < settleBy) {
  await sleep(500);
  usage = (await usageTotal()) - before;
  reads = (await readsTotal()) - readsBefore;
}
await sql.end();
console.log(
  JSON.stringify({
    signal,
    answers_received: answers,
    by_status: byStatus,
    usage_recorded: usage,
    reads_in_sheet_stats: reads,
    cut_off: cutOff,
    refused,
  }),
);
if (firstRefusal) console.log(`first answer other than 200: ${firstRefusal}`);
// The drill is about requests served: answers that are mostly refusals would prove nothing.
if (served < answers * 0.9) {
  console.error(`FAILED: only ${served} of ${answers} answers were 200`);
  process.exit(1);
}
if (reads < served || reads > answers + cutOff) {
  console.error(
    `FAILED: the sheet's stats count ${reads} reads: at least the ${served} answered 200, at most ${answers + cutOff}`,
  );
  process.exit(1);
}
const ok = signal === "SIGTERM" ? usage === answers && cutOff === 0 : usage >= answers && usage <= answers + cutOff;
if (!ok) {
  console.error(
    signal === "SIGTERM"
      ? `FAILED: after SIGTERM the usage (${usage}) must equal the answers received (${answers}), with no request cut off (${cutOff})`
      : `FAILED: after kill -9 the usage (${usage}) must be at least the answers received (${answers}) and at most ${answers + cutOff}`,
  );
  process.exit(1);
}
console.log(
  `OK: ${signal === "SIGTERM" ? "usage equals the answers received" : "no answer received went uncounted"}, and every read is in the sheet's stats`,
);
