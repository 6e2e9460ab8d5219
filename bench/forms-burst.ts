// 100 form submissions to one form key (POST /f/{formKey}) from 100 visitors: all at once, then
// one after another; rows created and the Google calls they cost, route handlers in-process.
//   npx tsx bench/forms-burst.ts [--submissions 100]
import { parseArgs } from "node:util";
import { inProcessService } from "./in-process";
import { log, percentile, runBench } from "./support";

const { values: args } = parseArgs({ options: { submissions: { type: "string", default: "100" } } });
const N = Number(args.submissions);
const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
const SITE = "https://club.example.com";

async function main() {
  // One hop of proxy trusted, so each visitor is its own address (X-Forwarded-For), as behind a load balancer.
  const { google, stop } = await inProcessService("forms-burst", {
    env: { TRUSTED_PROXY_HOPS: "1", LOG_LEVEL: "fatal" },
  });
  const { createUser } = await import("@/db/queries/users");
  const { registeredKey } = await import("@/testing/google");
  const { createFormKey } = await import("@/lib/keys/form-keys");
  const { callRoute } = await import("@/testing/routes");
  const { POST } = await import("@/app/f/[formKey]/route");
  const owner = await createUser({ email: "forms-burst@example.com", plan: "business" });

  let sheets = 0;
  /** A fresh sheet of 50 signups, registered, with a form key on its tab (the default per-visitor limit). */
  async function formOnNewSheet() {
    const { spreadsheetId } = (await (
      await fetch(`${google.url}/__admin/spreadsheets`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          title: `Forms burst ${++sheets}`,
          members: { [SA]: "writer", [owner.email!]: "owner" },
          tabs: [
            {
              title: "Signups",
              rows: [
                ["id", "name", "email", "message"],
                ...Array.from({ length: 50 }, (_, i) => [i + 1, `Member ${i + 1}`, `m${i + 1}@example.com`, ""]),
              ],
            },
          ],
        }),
      })
    ).json()) as { spreadsheetId: string };
    await registeredKey(owner, spreadsheetId);
    const { value } = await createFormKey({
      userId: owner.id,
      sheetId: spreadsheetId,
      name: "signup",
      form: { tab: "Signups", origins: [SITE], redirects: [`${SITE}/thanks`] },
    });
    return { sheetId: spreadsheetId, key: value };
  }
  const dataRows = (id: string) => google.store.get(id)!.tabs[0]!.rows.filter((r) => r?.some((c) => c)).length - 1;

  /** One browser's form post from the site's page, visitor `i` at an address of its own. */
  const submit = async (key: string, i: number) => {
    const t0 = performance.now();
    const res = await callRoute(POST, {
      method: "POST",
      path: `/f/${key}`,
      params: { formKey: key },
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "text/html,application/xhtml+xml,*/*;q=0.8",
        "X-Forwarded-For": `198.51.${100 + (i >> 8)}.${i & 255}`,
        Origin: SITE,
        Referer: `${SITE}/join`,
      },
      body: new URLSearchParams({
        name: `Visitor ${i}`,
        email: `v${i}@example.com`,
        message: "Hi",
        _gotcha: "",
      }).toString(),
    });
    return { status: res.status, ms: performance.now() - t0 };
  };

  const lines: string[] = [];
  for (const shape of ["all at once", "one after another"] as const) {
    const { sheetId, key } = await formOnNewSheet();
    const rowsBefore = dataRows(sheetId);
    google.calls.clear();
    log(`${N} submissions, ${shape}`);
    const t0 = performance.now();
    const answers =
      shape === "all at once"
        ? await Promise.all(Array.from({ length: N }, (_, i) => submit(key, i)))
        : await (async () => {
            const out = [];
            for (let i = 0; i < N; i++) out.push(await submit(key, i));
            return out;
          })();
    const wall = performance.now() - t0;
    const calls = Object.fromEntries([...google.calls].sort(([a], [b]) => a.localeCompare(b)));
    const total = Object.values(calls).reduce((a, b) => a + b, 0);
    const statuses = new Map<number, number>();
    for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
    lines.push(
      `| ${shape} | ${N} | ${[...statuses].map(([s, n]) => `${s} x ${n}`).join(", ")} | ${dataRows(sheetId) - rowsBefore} | ${total} | ${Object.entries(
        calls,
      )
        .map(([m, n]) => `${m} ${n}`)
        .join(", ")} | ${percentile(ms, 50).toFixed(0)} | ${percentile(ms, 99).toFixed(0)} | ${wall.toFixed(0)} |`,
    );
  }
  console.log(
    "\n| submissions | n | answers | rows created | Google calls | by method | p50 ms | p99 ms | wall ms |\n|---|---|---|---|---|---|---|---|---|",
  );
  for (const line of lines) console.log(line);
  await stop();
}

runBench(main);
