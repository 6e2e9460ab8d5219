// The costliest filters the API accepts on a 100,000-row tab, and what they cost against the
// matcher they replaced, in one process (no server, no Google call). bench/README.md says more.
//   npx tsx bench/filter-worst.ts [--rounds 3]
import { parseArgs } from "node:util";
import { globReference as oldLike } from "@/testing/glob-reference";
import { log, runBench } from "./support";

const { values: args } = parseArgs({ options: { rounds: { type: "string", default: "3" } } });
const ROUNDS = Number(args.rounds);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function main() {
  const { parseTabValues } = await import("@/lib/sheets/values/rows");
  const { likePattern } = await import("@/lib/sheets/values/like");
  const { applyQuery, conditionsOf, parseListQuery, queryColumns } = await import("@/lib/sheets/read/query");
  const { decideAll, queryWork, WORK_BUDGET } = await import("@/lib/sheets/read/query-cost");
  const { columnIndex } = await import("@/lib/sheets/read/tab-index");
  type TabData = ReturnType<typeof parseTabValues>;

  log("the reviewed case: 5 cells of 50,000 characters, an 8,000-character pattern");
  const cells = JSON.parse(JSON.stringify(Array.from({ length: 5 }, () => "a".repeat(50_000)))) as string[];
  const reviewed = `*${"a".repeat(7_998)}b*`;
  let t0 = performance.now();
  cells.forEach((c) => oldLike(reviewed)(c));
  const reviewedOld = performance.now() - t0;
  t0 = performance.now();
  for (let r = 0; r < 100; r++) cells.forEach((c) => likePattern(reviewed).test(c));
  const reviewedNew = (performance.now() - t0) / 100;

  const model = {
    name: "Big",
    gid: 0,
    hasIdColumn: true,
    columns: [
      { name: "id", index: 0, type: "number" as const },
      { name: "t", index: 1, type: "string" as const },
    ],
  };
  // As Google sends a tab: text parsed from JSON (flat strings, as a cache holds them).
  const tabOf = (cell: (i: number) => string): TabData =>
    parseTabValues(
      "Big",
      JSON.parse(
        JSON.stringify([["id", "t"], ...Array.from({ length: 100_000 }, (_, i) => [String(i + 1), cell(i)])]),
      ) as string[][],
      model,
    );
  const short = (i: number) => `row-${String(i).padStart(7, "0")}-x`;
  const long = (i: number) => `${"a".repeat(390)}${String(i).padStart(10, "0")}`;
  const stars = `*${"0*".repeat(31)}`;
  // Each ends as the cells do, so every part between the stars is looked for.
  const needle = `${"a".repeat(250)}b${"a".repeat(100)}`;
  // Each: its tab, and its conditions given how many (the most the budget lets through is used).
  const cases: { name: string; cell: (i: number) => string; query: (n: number) => string; max: number }[] = [
    {
      name: "`~=` of 32 stars, short cells, as many alternatives as the budget lets through",
      cell: short,
      query: (n) =>
        `filter=${encodeURIComponent(`t~=${Array.from({ length: n }, (_, k) => `${stars}${k}-x`).join("|")}`)}`,
      max: 500,
    },
    {
      name: "`~=` with a 352-character part between stars, 400-character cells",
      cell: long,
      query: (n) =>
        `filter=${encodeURIComponent(`t~=${Array.from({ length: n }, (_, k) => `*${needle}${k}*`).join("|")}`)}`,
      max: 50,
    },
    {
      name: "`~` of 350 characters (`ab` then `a`s: indexOf's worst), 400-character cells",
      cell: long,
      query: (n) =>
        `filter=${encodeURIComponent(Array.from({ length: n }, (_, k) => `t~ab${"a".repeat(346)}${k}`).join(","))}`,
      max: 50,
    },
    {
      name: "`~` conditions, short cells, up to the condition limit",
      cell: short,
      query: (n) => `filter=${encodeURIComponent(Array.from({ length: n }, (_, k) => `t~-${k}-`).join(","))}`,
      max: 100,
    },
  ];

  const rowsOut: string[] = [];
  for (const c of cases) {
    log(c.name);
    const fresh = () => {
      const data = tabOf(c.cell);
      columnIndex(data, "t");
      return data;
    };
    let data = fresh();
    const parse = (n: number) => parseListQuery(new URLSearchParams(c.query(n)), queryColumns(data));
    let n = 1;
    while (n < c.max && queryWork(data, conditionsOf(parse(n + 1))) <= WORK_BUDGET) n++;
    const query = parse(n);
    const work = queryWork(data, conditionsOf(query));
    const cpu: number[] = [];
    const held: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      data = fresh();
      // How long the event loop waits while the query runs: the gaps between its turns.
      // CPU time, not wall time: the machine's other work preempting a turn is not charged to it.
      let last = cpuMs();
      let gap = 0;
      let running = true;
      const tick = () => {
        const now = cpuMs();
        gap = Math.max(gap, now - last);
        last = now;
        if (running) setImmediate(tick);
      };
      setImmediate(tick);
      const start = cpuMs();
      applyQuery(data, query, await decideAll(data, conditionsOf(query)));
      cpu.push(cpuMs() - start);
      running = false;
      held.push(Math.max(gap, cpuMs() - last));
    }
    // The old way on 1,000 of the 100,000 values, scaled: `~=` by the walk, `~` by includes.
    const sample = JSON.parse(JSON.stringify(Array.from({ length: 1_000 }, (_, i) => c.cell(i * 100)))) as string[];
    const conditions = conditionsOf(query);
    t0 = performance.now();
    for (const cond of conditions) {
      const tests =
        cond.op === "~="
          ? cond.values.map(oldLike)
          : [(t: string) => t.toLowerCase().includes(cond.values[0]!.toLowerCase())];
      for (const v of sample) tests.some((test) => test(v));
    }
    const old = ((performance.now() - t0) * 100_000) / sample.length;
    const conditionCount = query.filters.length;
    const alternatives = conditions.reduce((k, x) => k + x.values.length, 0);
    rowsOut.push(
      `| ${c.name}: ${conditionCount} condition(s), ${alternatives} pattern(s) | ${(work / 1e6).toFixed(1)} M | ${median(cpu).toFixed(0)} ms (max ${Math.max(...cpu).toFixed(0)}) | ${Math.max(...held).toFixed(1)} ms | ${old.toFixed(0)} ms | ${(old / median(cpu)).toFixed(1)}x |`,
    );
  }

  console.log(`\n| measure | result |`);
  console.log(`|---|---|`);
  console.log(
    `| reviewed case (5 x 50,000 characters, 8,000-character pattern), old walk | ${reviewedOld.toFixed(0)} ms |`,
  );
  console.log(
    `| the same, matcher now | ${reviewedNew.toFixed(2)} ms (${(reviewedOld / reviewedNew).toFixed(0)}x less) |`,
  );
  console.log(
    `\nWork budget ${WORK_BUDGET.toLocaleString("en-US")} units a request; 100,000 rows, copies built fresh each round (no kept decisions), ${ROUNDS} rounds.\n`,
  );
  console.log(
    `| query (the costliest accepted of its kind) | work units | CPU, median | longest between event-loop turns (CPU) | old way (1,000-value sample x 100) | old / now |`,
  );
  console.log(`|---|---|---|---|---|---|`);
  for (const r of rowsOut) console.log(r);
}

runBench(main);
