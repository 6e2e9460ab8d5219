// What ordinary traffic costs in Google calls on embedded defaults, and what the quota guard then
// refuses, scenario by scenario (bench/README.md).
//   npx tsx bench/google-calls.ts [--only creates,puts,pairs,pairs-cold,contract,csv] [--contract-seconds 120]
import { parseArgs } from "node:util";
import { inProcessService } from "./in-process";
import { log, runBench } from "./support";

const { values: args } = parseArgs({
  options: {
    only: { type: "string", default: "creates,puts,pairs,pairs-cold,contract,csv" },
    "contract-seconds": { type: "string", default: "120" },
  },
});
const ONLY = new Set(args.only.split(","));
const CONTRACT_MS = Number(args["contract-seconds"]) * 1000;
const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
const N = 30;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Answer = { status: number; headers: Headers; body: Record<string, unknown>; text: string };
interface Result {
  scenario: string;
  requests: number;
  seconds: number;
  calls: Record<string, number>;
  statuses: Map<number, number>;
  notes: string;
}

async function main() {
  const { google, stop } = await inProcessService("google-calls");
  const { createUser } = await import("@/db/queries/users");
  const { registerSheet } = await import("@/lib/sheets/registration/registration");
  const { callRoute } = await import("@/testing/routes");
  const { proveAccessWithGoogle } = await import("@/testing/google");
  const collection = await import("@/app/api/v1/[sheetId]/[tabName]/route");
  const item = await import("@/app/api/v1/[sheetId]/[tabName]/[rowId]/route");
  const adminCalls = async (method = "GET") =>
    (await (await fetch(`${google.url}/__admin/calls`, { method })).json()) as Record<string, number>;

  let sheets = 0;
  /** A sheet of `tabs` tabs of `rows` rows, on its own Business account, registered: its key. */
  async function sheet(tabs: string[], rows = 40) {
    const email = `calls-bench-${++sheets}@example.com`;
    const table = (t: string) => [
      ["id", "name", "qty", "note"],
      ...Array.from({ length: rows }, (_, i) => [i + 1, `${t} ${i + 1}`, i % 7, ""]),
    ];
    const { spreadsheetId } = (await (
      await fetch(`${google.url}/__admin/spreadsheets`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          title: `Calls bench ${sheets}`,
          members: { [SA]: "writer", [email]: "owner" },
          tabs: tabs.map((title) => ({ title, rows: table(title) })),
        }),
      })
    ).json()) as { spreadsheetId: string };
    const user = await createUser({ email, plan: "business" });
    await proveAccessWithGoogle(user, [spreadsheetId], email);
    const key = (await registerSheet({ userId: user.id, sheetUrl: spreadsheetId })).apiKey!;
    const call = (method: string, tab: string, rowId?: string, query = "", body?: unknown): Promise<Answer> => {
      const enc = encodeURIComponent;
      const path = `/api/v1/${spreadsheetId}/${enc(tab)}${rowId === undefined ? "" : `/${enc(rowId)}`}${query ? `?${query}` : ""}`;
      const mod = (rowId === undefined ? collection : item) as unknown as Record<string, unknown>;
      return callRoute(mod[method], {
        method,
        path,
        params: { sheetId: spreadsheetId, tabName: tab, ...(rowId === undefined ? {} : { rowId }) },
        headers: { "X-API-Key": key },
        body,
      }) as Promise<Answer>;
    };
    return {
      list: (tab: string, query = "") => call("GET", tab, undefined, query),
      get: (tab: string, id: string) => call("GET", tab, id),
      create: (tab: string, body: unknown) => call("POST", tab, undefined, "", body),
      update: (tab: string, id: string, body: unknown) => call("PUT", tab, id, "", body),
      remove: (tab: string, id: string) => call("DELETE", tab, id),
    };
  }

  /**
   * Waits for a quiet quota minute: a calendar minute (the guard's per-account windows) that
   * starts a minute after the setup's calls (the identity's sliding window), so the scenario
   * spends a minute's quota of its own, as a client starting on a quiet service would.
   */
  async function freshMinute() {
    const quietAt = Date.now() + 60_000;
    const wait = quietAt + (60_000 - (quietAt % 60_000)) + 200 - Date.now();
    log(`waiting ${Math.round(wait / 1000)} s for a fresh quota minute`);
    await sleep(wait);
  }

  const results: Result[] = [];
  async function scenario(name: string, run: (count: (a: Answer) => Answer) => Promise<string>) {
    await freshMinute();
    await adminCalls("DELETE");
    const statuses = new Map<number, number>();
    let requests = 0;
    const refusals = new Map<string, number>();
    const count = (a: Answer) => {
      requests++;
      statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      if (a.status === 503) {
        const why = String(a.body.message)
          .replace(/\d+ s\b/g, "N s")
          .slice(0, 90);
        refusals.set(why, (refusals.get(why) ?? 0) + 1);
      }
      return a;
    };
    const started = Date.now();
    const notes = [await run(count), ...[...refusals].map(([why, n]) => `503 x ${n}: "${why}"`)]
      .filter(Boolean)
      .join("; ");
    const result = {
      scenario: name,
      requests,
      seconds: (Date.now() - started) / 1000,
      calls: await adminCalls(),
      statuses,
      notes,
    };
    results.push(result);
    log(`${name}: ${JSON.stringify(result.calls)}; answers ${JSON.stringify(Object.fromEntries(statuses))}; ${notes}`);
  }

  if (ONLY.has("creates")) {
    const api = await sheet(["Items"]);
    await api.list("Items");
    await scenario(`${N} concurrent creates`, async (count) => {
      const answers = (
        await Promise.all(Array.from({ length: N }, (_, i) => api.create("Items", { name: `new ${i}`, qty: i })))
      ).map(count);
      const ids = new Set(
        answers
          .filter((a) => a.status === 201)
          .map((a) => String((a.body.data as { rows: { id: string }[] }).rows[0]!.id)),
      );
      return `${ids.size} distinct ids`;
    });
  }

  if (ONLY.has("puts")) {
    const api = await sheet(["Items"]);
    await api.list("Items");
    await scenario(`${N} concurrent PUTs, different rows`, async (count) => {
      (
        await Promise.all(Array.from({ length: N }, (_, i) => api.update("Items", String(i + 1), { qty: 100 + i })))
      ).map(count);
      return "";
    });
  }

  if (ONLY.has("pairs")) {
    const api = await sheet(["Items"]);
    await api.list("Items");
    await scenario(`${N} create + list pairs, in turn`, async (count) => {
      const caches = new Map<string, number>();
      for (let i = 0; i < N; i++) {
        count(await api.create("Items", { name: `pair ${i}` }));
        const listed = count(await api.list("Items"));
        const cache = listed.headers.get("x-cache") ?? "-";
        caches.set(cache, (caches.get(cache) ?? 0) + 1);
      }
      return `lists: ${[...caches].map(([k, v]) => `${v} ${k}`).join(", ")}`;
    });
  }

  if (ONLY.has("pairs-cold")) {
    // The same client starting on a cold copy: its first list reads the tab in the same minute as
    // its 30 creates (31 reads in all), more than half of the identity's 60.
    const api = await sheet(["Items"]);
    await scenario(`list, then ${N} create + list pairs, from a cold copy`, async (count) => {
      count(await api.list("Items"));
      for (let i = 0; i < N; i++) {
        count(await api.create("Items", { name: `cold pair ${i}` }));
        count(await api.list("Items"));
      }
      return "";
    });
  }

  if (ONLY.has("contract")) {
    const tabs = ["Orders", "Customers", "Products"];
    const api = await sheet(tabs);
    await scenario(`contract run, ${tabs.length} tabs over ${CONTRACT_MS / 1000} s`, async (count) => {
      // One round per tab: what a generated contract suite sends (every operation, then its errors).
      const round = async (tab: string, n: number) => {
        count(await api.list(tab));
        count(await api.list(tab, "limit=5&offset=2"));
        count(await api.list(tab, "sort=qty&order=desc"));
        count(await api.get(tab, "3"));
        const created = count(await api.create(tab, { name: `contract ${n}`, qty: n }));
        const id = created.status === 201 ? String((created.body.data as { rows: { id: string }[] }).rows[0]!.id) : "0";
        count(await api.get(tab, id));
        count(await api.update(tab, id, { note: `updated ${n}` }));
        count(await api.list(tab, `filter=name=contract ${n}`));
        count(await api.remove(tab, id));
        count(await api.get(tab, id)); // 404 now
        count(await api.list(tab, "sort=colour")); // 400
        count(await api.create(tab, { colour: "red" })); // 400
      };
      const REQUESTS_PER_ROUND = 12;
      const rounds = Math.max(1, Math.round(150 / REQUESTS_PER_ROUND / tabs.length));
      const pace = CONTRACT_MS / (rounds * tabs.length);
      const started = Date.now();
      for (let r = 0; r < rounds; r++) {
        for (const [t, tab] of tabs.entries()) {
          const due = started + (r * tabs.length + t) * pace;
          if (due > Date.now()) await sleep(due - Date.now());
          await round(tab, r);
        }
      }
      return `${rounds} rounds of ${REQUESTS_PER_ROUND} requests on each tab`;
    });
  }

  if (ONLY.has("csv")) {
    const api = await sheet(["Items"]);
    await api.update("Items", "1", { note: "written" });
    await api.list("Items");
    await scenario("csv after a read that loaded the tab", async (count) => {
      await sleep(10_500); // the copy expires (the default TTL is 10 s)
      const first = count(await api.list("Items"));
      const after = [];
      for (const [tab, query] of [
        ["Items.csv", ""],
        ["Items", "limit=2"],
        ["Items.csv", "limit=3"],
        ["Items", "limit=4"],
        ["Items", "offset=1"],
      ] as const)
        after.push(count(await api.list(tab, query)).headers.get("x-cache"));
      return `first ${first.headers.get("x-cache")}, then ${after.join(" ")}`;
    });
  }

  const sheetsCalls = (calls: Record<string, number>) =>
    Object.entries(calls)
      .filter(([k]) => !k.startsWith("files.") && !k.startsWith("oauth."))
      .reduce((a, [, v]) => a + v, 0);
  const lines = [
    "| scenario | requests | s | Sheets calls | Drive checks | calls by method | answers | 503 | notes |",
    "|---|---|---|---|---|---|---|---|---|",
    ...results.map((r) => {
      const byMethod = Object.entries(r.calls)
        .filter(([k]) => !k.startsWith("oauth."))
        .map(([k, v]) => `${k} ${v}`)
        .join(", ");
      const answers = [...r.statuses]
        .sort((a, b) => a[0] - b[0])
        .map(([s, n]) => `${n} x ${s}`)
        .join(", ");
      return `| ${r.scenario} | ${r.requests} | ${r.seconds.toFixed(1)} | **${sheetsCalls(r.calls)}** | ${r.calls["files.get"] ?? 0} | ${byMethod} | ${answers} | **${r.statuses.get(503) ?? 0}** | ${r.notes} |`;
    }),
  ];
  console.log(`\n${lines.join("\n")}\n`);
  await stop();
}

runBench(main);
