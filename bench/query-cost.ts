// What a query costs on a tab's cached copy, by tab size, in one process: CPU per query, a row by
// id, and the heap of a cached 100,000 x 10 tab (bench/README.md).
//   npx tsx --expose-gc bench/query-cost.ts [--rounds 5]
import { parseArgs } from "node:util";
import { log, rows as grid, runBench } from "./support";

const { values: args } = parseArgs({ options: { rounds: { type: "string", default: "5" } } });
const ROUNDS = Number(args.rounds);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const stats = (xs: number[], digits = 2) => {
  const s = [...xs].sort((a, b) => a - b);
  return `min ${s[0]!.toFixed(digits)}, median ${median(s).toFixed(digits)}, max ${s[s.length - 1]!.toFixed(digits)}`;
};
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

// id, c1..c9: c1, c4, c7 text ("text 0".."text 996"), the others numbers 0-999.
const QUERIES = [
  "filter=c2>500,c1~XT 1&sort=c4&order=desc&limit=50&offset=10",
  "filter=c3>=200,c3<300&sort=c3&limit=50",
  "filter=c5=17|18|19,c7!=text 5&sort=c2,c8&order=asc,desc&limit=20&offset=40",
  "filter=c1~=*7&sort=id&order=desc&limit=100",
];

async function main() {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with --expose-gc: npx tsx --expose-gc bench/query-cost.ts");
  const { parseTabValues, rowToJson, rowEtag } = await import("@/lib/sheets/values/rows");
  const { applyQuery, parseListQuery, queryColumns } = await import("@/lib/sheets/read/query");
  const { findRow } = await import("@/lib/sheets/read/tab-index");
  type TabData = ReturnType<typeof parseTabValues>;

  const header = grid(0, 10)[0]!.map(String);
  const model = {
    name: "Big",
    gid: 0,
    hasIdColumn: true,
    columns: header.map((name, index) => ({
      name,
      index,
      type: /^c(1|4|7)$/.test(name) ? ("string" as const) : ("number" as const),
    })),
  };
  // As Google sends the tab (FORMATTED_VALUE: every cell a string), parsed as googleapis does.
  const jsonOf = (n: number) =>
    JSON.stringify({ range: "'Big'!A1:J", majorDimension: "ROWS", values: grid(n, 10).map((r) => r.map(String)) });
  const tabOf = (json: string): TabData =>
    parseTabValues("Big", (JSON.parse(json) as { values: string[][] }).values, model);
  const list = (data: TabData, q: string) => {
    const query = parseListQuery(new URLSearchParams(q), queryColumns(data));
    const { rows, total } = applyQuery(data, query);
    return { rows: rows.map((r) => rowToJson(data, r, query)), total };
  };

  log("memory: a cached 100,000 x 10 tab, then with the indexes its queries and row reads build");
  const json = jsonOf(100_000);
  const heap = () => {
    gc();
    gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const tabRatios: number[] = [];
  const indexedRatios: number[] = [];
  for (let round = 0; round < 3; round++) {
    const before = heap();
    let data: TabData | undefined = tabOf(json);
    tabRatios.push((heap() - before) / json.length);
    for (const q of QUERIES) list(data, q);
    findRow(data, "100000");
    indexedRatios.push((heap() - before) / json.length);
    data = undefined;
  }

  log("CPU per query on 10,000 and 100,000 rows (the first query of each kind builds its indexes, not counted)");
  const tabs = new Map([10_000, 100_000].map((n) => [n, tabOf(jsonOf(n))]));
  for (const data of tabs.values()) for (const q of QUERIES) list(data, q);
  const REPEAT = 20;
  const perQuery = new Map<number, number[]>([...tabs.keys()].map((n) => [n, []]));
  const byQuery = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    const spent = new Map<number, number>();
    for (let k = 0; k < QUERIES.length * tabs.size; k++) {
      // Sizes and queries alternate, in an order that turns each round.
      const at = (k + round) % (QUERIES.length * tabs.size);
      const n = [...tabs.keys()][at % tabs.size]!;
      const q = QUERIES[Math.floor(at / tabs.size)]!;
      const data = tabs.get(n)!;
      const t0 = cpuMs();
      for (let r = 0; r < REPEAT; r++) list(data, q);
      const ms = (cpuMs() - t0) / REPEAT;
      spent.set(n, (spent.get(n) ?? 0) + ms);
      if (n === 100_000) byQuery.set(q, [...(byQuery.get(q) ?? []), ms]);
    }
    for (const [n, ms] of spent) perQuery.get(n)!.push(ms / QUERIES.length);
  }
  const growth = perQuery.get(100_000)!.map((ms, i) => ms / perQuery.get(10_000)![i]!);

  log("a row by id on 100,000 rows: the first row against the last");
  const big = tabs.get(100_000)!;
  const read = (id: string) => {
    const row = findRow(big, id)!;
    return [rowToJson(big, row, { typed: false }), rowEtag(big, row)];
  };
  const BLOCK = 20_000;
  // CPU time, as for the queries: a block the machine's other work preempts is not charged for it.
  const timeBlock = (id: string) => {
    const t0 = cpuMs();
    for (let r = 0; r < BLOCK; r++) read(id);
    return cpuMs() - t0;
  };
  timeBlock("1");
  timeBlock("100000");
  const lastOverFirst: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const first: number[] = [];
    const last: number[] = [];
    for (let pair = 0; pair < 7; pair++) {
      // Which side goes first alternates, so drift hits both alike.
      if (pair % 2) last.push(timeBlock("100000"));
      first.push(timeBlock("1"));
      if (!(pair % 2)) last.push(timeBlock("100000"));
    }
    lastOverFirst.push(median(first) / median(last));
  }

  console.log(`\n| measure | result | target |`);
  console.log(`|---|---|---|`);
  console.log(
    `| CPU per filter+sort+page query, 100,000 rows (mean of ${QUERIES.length} queries) | ${stats(perQuery.get(100_000)!)} ms | <= 2 ms |`,
  );
  console.log(`| CPU per filter+sort+page query, 10,000 rows | ${stats(perQuery.get(10_000)!)} ms | |`);
  console.log(`| cost of x10 rows (100,000 / 10,000) | ${stats(growth)} | |`);
  for (const [q, ms] of byQuery) console.log(`| 100,000 rows: \`${q}\` | ${stats(ms)} ms | |`);
  console.log(
    `| row by id on 100,000 rows: reads per CPU ms of the last row / of the first | ${stats(lastOverFirst)} | >= 0.95 |`,
  );
  console.log(
    `| heap of the cached 100,000 x 10 tab / its JSON (${(json.length / 1e6).toFixed(1)} MB) | ${stats(tabRatios)} | |`,
  );
  console.log(
    `| the same with the indexes its queries and row reads built / its JSON | ${stats(indexedRatios)} | <= 3 |`,
  );
}

runBench(main);
