// The Google quota guard under 1,000 reads a minute on one identity while the sheets are edited in
// the Sheets UI (bench/README.md).
//   npx tsx bench/google-quota.ts [--minutes 2] [--reads-per-minute 1000]
import { parseArgs } from "node:util";
import { inProcessService } from "./in-process";
import { runBench } from "./support";

const { values: args } = parseArgs({
  options: { minutes: { type: "string", default: "2" }, "reads-per-minute": { type: "string", default: "1000" } },
});
const MINUTES = Number(args.minutes);
const RATE = Number(args["reads-per-minute"]);
const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
const log = (line: string) => console.log(`▸ ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const { google, stop: stopService } = await inProcessService("quota", { env: { RATE_LIMIT_MULTIPLIER: "100" } });
  const { createUser } = await import("@/db/queries/users");
  const { registerSheet } = await import("@/lib/sheets/registration/registration");
  const { callRoute } = await import("@/testing/routes");
  const { proveAccessWithGoogle } = await import("@/testing/google");
  const { GET } = await import("@/app/api/v1/[sheetId]/[tabName]/route");

  log("5 sheets x 4 tabs x 200 rows, shared with the service account, on one Business account");
  const user = await createUser({ email: "quota-bench@example.com", plan: "business" });
  const tabs: { sheetId: string; tab: string; key: string }[] = [];
  for (let s = 0; s < 5; s++) {
    const rows = (t: number) => [
      ["id", "name", "qty"],
      ...Array.from({ length: 200 }, (_, i) => [i + 1, `item ${s}-${t}-${i}`, i % 17]),
    ];
    const { spreadsheetId } = (await (
      await fetch(`${google.url}/__admin/spreadsheets`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          title: `Quota bench ${s}`,
          members: { [SA]: "writer", "quota-bench@example.com": "owner" },
          tabs: [0, 1, 2, 3].map((t) => ({ title: `Tab${t}`, rows: rows(t) })),
        }),
      })
    ).json()) as { spreadsheetId: string };
    await proveAccessWithGoogle(user, [spreadsheetId], "quota-bench@example.com");
    const key = (await registerSheet({ userId: user.id, sheetUrl: spreadsheetId })).apiKey!;
    for (let t = 0; t < 4; t++) tabs.push({ sheetId: spreadsheetId, tab: `Tab${t}`, key });
  }

  const outcomes = new Map<string, number>();
  const perMinute: { sheets: number; drive: number; reads: number }[] = [];
  const counts = () => ({
    sheets: (google.calls.get("values.get") ?? 0) + (google.calls.get("values.batchGet") ?? 0),
    drive: google.calls.get("files.get") ?? 0,
  });
  google.calls.clear();

  let stop = false;
  // People editing the sheets in the Sheets UI: one cell every 2 s.
  const editing = (async () => {
    for (let n = 0; !stop; n++) {
      const target = tabs[Math.floor(Math.random() * tabs.length)]!;
      await fetch(`${google.url}/__admin/spreadsheets/${target.sheetId}/values`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ range: `'${target.tab}'!B2`, values: [[`edit ${n}`]] }),
      });
      await sleep(2000);
    }
  })();

  const started = Date.now();
  const interval = 60_000 / RATE;
  const inflight: Promise<void>[] = [];
  let minuteStart = counts();
  let minuteReads = 0;
  for (let i = 0; Date.now() - started < MINUTES * 60_000; i++) {
    const due = started + i * interval;
    if (due > Date.now()) await sleep(due - Date.now());
    const target = tabs[i % tabs.length]!;
    inflight.push(
      callRoute(GET, {
        path: `/api/v1/${target.sheetId}/${target.tab}?limit=20`,
        params: { sheetId: target.sheetId, tabName: target.tab },
        headers: { "X-API-Key": target.key },
      }).then((res) => {
        const outcome = `${res.status} ${res.headers.get("x-cache") ?? ""}`.trim();
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }),
    );
    minuteReads++;
    if (Date.now() - started >= (perMinute.length + 1) * 60_000) {
      const now = counts();
      perMinute.push({
        sheets: now.sheets - minuteStart.sheets,
        drive: now.drive - minuteStart.drive,
        reads: minuteReads,
      });
      log(
        `minute ${perMinute.length}: ${minuteReads} reads, ${now.sheets - minuteStart.sheets} Sheets calls, ${now.drive - minuteStart.drive} Drive checks`,
      );
      minuteStart = now;
      minuteReads = 0;
    }
  }
  stop = true;
  await Promise.all(inflight);
  await editing;

  const total = [...outcomes.values()].reduce((a, b) => a + b, 0);
  const lines = [
    "| minute | reads | Google Sheets calls | Drive change checks |",
    "|---|---|---|---|",
    ...perMinute.map((m, i) => `| ${i + 1} | ${m.reads} | **${m.sheets}** | ${m.drive} |`),
    "",
    "| answer | count | share |",
    "|---|---|---|",
    ...[...outcomes.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `| ${k} | ${v} | ${((v / total) * 100).toFixed(1)}% |`),
  ];
  console.log(`\n${lines.join("\n")}\n`);
  const worst = Math.max(...perMinute.map((m) => m.sheets));
  const failed = [...outcomes.entries()].filter(([k]) => !k.startsWith("200")).reduce((a, [, v]) => a + v, 0);
  console.log(`max Sheets calls in a minute: ${worst} (quota 60); answers other than 200: ${failed} of ${total}`);
  await stopService();
}

runBench(main);
