// The parts of a sheet's docs that are the same for every tab: keys, filters, errors, limits.
import { DOCUMENTED_ERRORS } from "@/lib/docs/errors";
import { config } from "@/lib/env";
import type { SheetDocs } from "@/lib/docs/sheet-docs";
import { ScrollArea } from "@/app/components/scroll-area";

const n = (x: number) => x.toLocaleString("en-US");
const th = "py-1.5 pr-4 font-normal";
const td = "py-1.5 pr-4 align-top";

function Table({
  label,
  head,
  rows,
  testId,
}: {
  label: string;
  head: string[];
  rows: React.ReactNode[][];
  testId?: string;
}) {
  return (
    <ScrollArea label={label}>
      <table className="w-full min-w-[28rem] text-left text-sm" data-testid={testId}>
        <thead className="text-xs text-slate-500 dark:text-slate-400">
          <tr>
            {head.map((h) => (
              <th key={h} className={th}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i} className="border-t border-slate-100 dark:border-slate-800">
              {r.map((c, j) => (
                <td key={j} className={td}>
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}

/** Where the rules every sheet shares are given in full (the repository's docs, served in-app). */
function FullRules({ href }: { href: string }) {
  return (
    <p className="text-sm">
      <a href={href} className="underline" data-testid="docs-full-rules">
        The general rules in full
      </a>
    </p>
  );
}

export function ReferenceSections({ docs }: { docs: SheetDocs }) {
  const tab = docs.model.tabs.find((t) => t.columns.length > 0);
  const text = tab?.columns.find((c) => c.type === "string" && c.name !== "id")?.name ?? "name";
  const num = tab?.columns.find((c) => ["number", "currency", "percent"].includes(c.type))?.name ?? "price";
  const date = tab?.columns.find((c) => c.type === "date" || c.type === "datetime")?.name;
  const p = docs.plan;
  return (
    <>
      <section id="keys" className="space-y-3 border-t border-slate-200 pt-10 dark:border-slate-800">
        <h2 className="text-xl font-semibold">Keys and permissions</h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          The sheet&apos;s owner creates keys in the dashboard; a key&apos;s value is shown once. Send it as{" "}
          <code>X-API-Key</code>, or as <code>Authorization: Bearer &lt;key&gt;</code>.
        </p>
        <Table
          label="Permissions"
          head={["Permission", "Grants"]}
          rows={[
            ["Read", "GET rows"],
            [
              "Write",
              "POST, PUT, PATCH, DELETE rows (by id); by filter, by another key column or as an upsert, with Read as well (those writes read the rows they match)",
            ],
            [
              "Schema",
              <>
                GET <code>/api/{docs.sheet.id}/schema</code>, POST <code>/api/{docs.sheet.id}/refresh-schema</code>
              </>,
            ],
            [
              "Analytics",
              <>
                GET <code>/billing/usage</code>
              </>,
            ],
          ]}
        />
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="docs-browser-keys">
          <strong>Browser keys.</strong> Keys starting <code>shk_</code> are secret: use them from servers. A browser
          (publishable) key, starting <code>shp_</code>, is safe in a web page: it only reads (lists, CSV, one row,{" "}
          <code>_aggregate</code>, <code>_distinct</code>), only from the origins its owner listed (exact{" "}
          <code>https://www.example.com</code>, or <code>https://*.example.com</code> for subdomains), and only the tabs
          and columns its owner chose: other tabs answer 404, other columns are absent (naming one in a filter, sort or
          select answers 400). From an unlisted origin, or without an <code>Origin</code> header (curl, servers), it
          answers 403 and the browser&apos;s fetch fails. Each visitor address has its own per-minute allowance on top
          of the plan.
        </p>
        {tab && (
          <pre
            tabIndex={0}
            className="overflow-x-auto rounded-md bg-slate-100 p-3 font-mono text-xs dark:bg-slate-900 max-sm:whitespace-pre-wrap max-sm:break-all"
            data-testid="docs-browser-fetch"
          >
            {`// In a page of an origin the key lists, e.g. https://www.example.com\nconst res = await fetch(${JSON.stringify(`${docs.baseUrl}/api/v1/${docs.sheet.id}/${encodeURIComponent(tab.name)}?select=${encodeURIComponent([text, num].join(","))}&limit=20`)}, {\n  headers: { "X-API-Key": "shp_YOUR_BROWSER_KEY" },\n});\nconst { data } = await res.json();`}
          </pre>
        )}
        <FullRules href="/docs/reference/api#api-keys" />
      </section>
      <section className="space-y-3 border-t border-slate-200 pt-10 dark:border-slate-800">
        <h2 className="text-xl font-semibold">Listing: filter, sort, page</h2>
        <Table
          label="List parameters"
          head={["Parameter", "Meaning"]}
          rows={[
            [<code key="l">limit</code>, "1 to 1,000 rows (default 100)"],
            [<code key="o">offset</code>, "rows to skip (default 0)"],
            [
              <code key="s">sort</code>,
              "a column, or several joined by , (later ones break ties); by value when all its values are numbers or dates (in the sheet's locale); stable; empty values last",
            ],
            [
              <code key="r">order</code>,
              "asc (default) or desc, for all sort columns or one per column (asc,desc); without sort, desc gives the last rows first",
            ],
            [<code key="f">filter</code>, "conditions joined by , (all must hold)"],
            [
              <code key="or">or</code>,
              "conditions joined by , of which one must hold (across columns); repeat for several groups",
            ],
            [<code key="c">select</code>, "only these columns (and id), comma-separated"],
            [
              <code key="t">typed</code>,
              "true: numbers, booleans and nulls instead of display strings; dates as ISO 8601 from the cell's underlying value and the sheet's time zone (a display without the year still gives the full date)",
            ],
            [
              <code key="fm">formulas</code>,
              "true: cells holding a formula answer with the formula (=B2*C2) instead of its result; only for keys the owner allowed to read formulas (others get 403)",
            ],
            [
              <code key="fr">fresh</code>,
              "true: read the sheet from Google now, not the cached copy (as Cache-Control: no-cache)",
            ],
            [
              <code key="u">_…</code>,
              "names starting with _ (cache-busters such as _=1700000000000) are ignored; any other unknown name answers 400",
            ],
          ]}
        />
        <Table
          label="Filter examples"
          testId="filter-examples"
          head={["Filter", "Matches"]}
          rows={[
            [<code key="1">{`${text}=Ada`}</code>, "equal, case-sensitive"],
            [<code key="2">{`${text}=Ada|Grace`}</code>, "either value"],
            [<code key="3">{`${text}!=Ada`}</code>, "different"],
            [
              <code key="4">{`${num}>=20`}</code>,
              "by value when both sides are numbers in the sheet's locale, or dates in date columns; else text order; empty cells never match",
            ],
            [<code key="5">{`${text}~ada`}</code>, "contains, case-insensitive"],
            [<code key="5a">{`${text}~=ada`}</code>, "equal ignoring case"],
            [
              <code key="5b">{`${text}~=ada*`}</code>,
              "starts with, ignoring case (* is any text: *ada ends with, *ada* contains)",
            ],
            [<code key="5c">{`${text}=`}</code>, "empty; with != not empty"],
            [
              <code key="5d">{`${num}=20|30`}</code>,
              "any of these values (by value in number, currency and date columns); != none of them",
            ],
            ...(date
              ? [
                  [
                    <code key="5e">{`${date}>=2024-03-01`}</code>,
                    "date columns compare by the date (ISO 8601, or as the sheet shows dates), not the text",
                  ],
                ]
              : []),
            [
              <code key="5f">{`or=${text}~=*a*,${num}<10`}</code>,
              "either condition (an or parameter, ANDed with filter)",
            ],
            [<code key="5g">{`sort=${text},${num}&order=asc,desc`}</code>, "sort by several columns"],
            [<code key="6">{`${num}<100,${text}~a`}</code>, "both conditions"],
            [<code key="7">{`${text}=a\\,b`}</code>, "a value holding a comma (escape , | and \\ with \\)"],
          ]}
        />
        <FullRules href="/docs/reference/api#listing" />
      </section>
      <section className="space-y-3 border-t border-slate-200 pt-10 dark:border-slate-800" data-testid="docs-formats">
        <h2 className="text-xl font-semibold">CSV and freshness</h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          <code>Accept: text/csv</code>, or <code>.csv</code> after the tab name (
          <code>
            /api/v1/{docs.sheet.id}/{encodeURIComponent(tab?.name ?? "Tab")}.csv?select={text}
          </code>
          ), answers the same query as RFC 4180 CSV with a header line: every matching row by default, up to 100,000,
          with <code>X-Total-Count</code>. Cells starting with = + - or @ get a leading &apos; so a spreadsheet opening
          the file never runs them as formulas (numbers such as -12.5 stay as they are). Every read carries{" "}
          <code>Last-Modified</code> (when its rows were read from Google), <code>Age</code> (seconds since),{" "}
          <code>ETag</code> and <code>X-Cache</code>.
        </p>
        <FullRules href="/docs/reference/api#csv-caching-freshness" />
      </section>
      <section className="space-y-3 border-t border-slate-200 pt-10 dark:border-slate-800">
        <h2 className="text-xl font-semibold">Errors</h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Every answer carries <code>success</code>. Errors are{" "}
          <code>{'{ "success": false, "error": code, "message": text }'}</code> and carry <code>X-Request-Id</code>.
        </p>
        <Table
          label="Errors"
          testId="errors"
          head={["Status", "error", "When"]}
          rows={DOCUMENTED_ERRORS.map((e) => [String(e.status), <code key={e.code}>{e.code}</code>, e.when])}
        />
        <FullRules href="/docs/reference/api#errors" />
      </section>
      <section className="space-y-3 border-t border-slate-200 pt-10 dark:border-slate-800">
        <h2 className="text-xl font-semibold">Rate limits</h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          The owner&apos;s plan, <strong data-testid="docs-plan">{p.label}</strong>, is shared by all keys of the
          account. Every answer carries <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> and{" "}
          <code>X-RateLimit-Reset</code> for the window closest to its limit (and the IETF <code>RateLimit</code> and{" "}
          <code>RateLimit-Policy</code> fields). A 429 carries <code>Retry-After</code> and{" "}
          <code>{"{ retry_after, limit: { allowed, current, reset_at } }"}</code>: wait that long, or back off
          exponentially.
        </p>
        <Table
          label="Rate limits"
          testId="docs-limits"
          head={["Per minute (burst)", "Per hour", "Per day (UTC)", "Per billing period"]}
          rows={[[n(p.burst), n(p.hour), n(p.day), n(p.month)]]}
        />
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Answers 2xx and 4xx count; 401, 429 and 5xx do not.
        </p>
        <FullRules href="/docs/reference/api#plans-and-limits" />
      </section>
      <section className="space-y-3 border-t border-slate-200 pt-10 dark:border-slate-800" data-testid="docs-events">
        <h2 className="text-xl font-semibold">Change events</h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          <code>GET /api/{docs.sheet.id}/events?after=&lt;seq&gt;&amp;limit=100</code> (key with Read) lists the
          sheet&apos;s changes oldest first: <code>row.created</code>, <code>row.updated</code> (with each changed
          column&apos;s <code>before</code> and <code>after</code>), <code>row.deleted</code> and{" "}
          <code>schema.changed</code>, each with its <code>tab</code>, <code>row_id</code> and <code>source</code> (
          <code>api</code> or <code>sheet</code>). Narrow with <code>tab=</code> and <code>type=</code>; page on with{" "}
          <code>meta.next_after</code>. The first call starts recording and lists nothing; events are kept{" "}
          {config().env.EVENT_RETENTION_DAYS} days. The owner can also have them pushed as signed webhooks from the
          dashboard.
        </p>
        <FullRules href="/docs/reference/webhooks" />
      </section>
    </>
  );
}
