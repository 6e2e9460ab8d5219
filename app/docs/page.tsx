// GET /docs: the service's guide (linked from GET /api as `documentation`): the concepts every
// sheet's own docs page builds on.
import type { Metadata } from "next";
import Link from "next/link";
import { config } from "@/lib/env";
import { PLANS } from "@/lib/plans";
import { QuickStart } from "./quick-start";
import { ScrollArea } from "@/app/components/scroll-area";

export const metadata: Metadata = { title: "Guide · SheetAPI" };
// The quick start's examples carry this server's own address, known at run time, not at build.
export const dynamic = "force-dynamic";

const n = (x: number) => x.toLocaleString("en-US");

/** A topic in short; `reference` is where the repository's docs page gives it in full. */
function Section({
  id,
  title,
  reference,
  children,
}: {
  id: string;
  title: string;
  reference: string;
  children: React.ReactNode;
}) {
  return (
    <section
      id={id}
      data-testid={`guide-${id}`}
      className="space-y-3 border-t border-slate-200 pt-8 text-slate-700 dark:border-slate-800 dark:text-slate-300"
    >
      <h2 className="text-xl font-semibold text-slate-900 dark:text-white">{title}</h2>
      {children}
      <p className="text-sm">
        <Link href={reference} className="underline" data-testid="guide-full-reference">
          Full reference<span className="sr-only">: {title}</span>
        </Link>
      </p>
    </section>
  );
}

/** The sheet docs' quick start with placeholders: each sheet's own page fills in its names. */
function GuideQuickStart() {
  const url = `${config().appUrl}/api/v1/YOUR_SHEET_ID/Sheet1`;
  return (
    <QuickStart
      keysHref="/dashboard"
      keysDocHref="#keys"
      read={{ method: "GET", url: `${url}?limit=5` }}
      create={{ method: "POST", url, body: { name: "Ada Lovelace", email: "ada@example.com" } }}
      note={
        <>
          Put in your sheet&apos;s id (the dashboard shows it), one of its tabs and its own column names, or open your
          sheet&apos;s docs page, <code>/docs/&#123;sheetId&#125;</code>, where these steps come filled in. No sheet
          yet?{" "}
          <a href="#registering" className="underline">
            Register one
          </a>
          : that shows its first key.
        </>
      }
    />
  );
}

const TOPICS = [
  ["registering", "Registering a sheet"],
  ["keys", "Keys and permissions"],
  ["ids", "Rows and ids"],
  ["filters", "Filters, sorting and paging"],
  ["aggregates", "Counts, totals and distinct values"],
  ["formats", "CSV, caching and freshness"],
  ["writes", "Writes"],
  ["limits", "Plans and rate limits"],
  ["errors", "Errors"],
  ["retries", "Retries"],
  ["webhooks", "Webhooks and events"],
] as const;

export default function GuidePage() {
  return (
    <article className="space-y-8 leading-relaxed [&_code]:[overflow-wrap:anywhere]">
      <header className="space-y-3">
        <h1 className="text-3xl font-bold">SheetAPI guide</h1>
        <p className="text-slate-600 dark:text-slate-400">
          SheetAPI turns a Google Sheet into a REST API: each tab is a JSON collection and each row an item. Every
          registered sheet has its own page at <code>/docs/&#123;sheetId&#125;</code> with its tabs, columns, examples
          and an OpenAPI 3.1 document; this guide explains what those pages build on.
        </p>
        <nav className="flex flex-wrap gap-2 text-sm">
          {TOPICS.map(([id, title]) => (
            <a
              key={id}
              href={`#${id}`}
              className="rounded-full border border-slate-200 px-3 py-1 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-900"
            >
              {title}
            </a>
          ))}
        </nav>
      </header>
      <GuideQuickStart />
      <Section id="registering" title="Registering a sheet" reference="/docs/reference/security#access-to-a-sheet">
        <p>
          <Link href="/dashboard" className="underline">
            Sign in
          </Link>{" "}
          with Google and choose the sheet with <strong>Choose a sheet from Google Drive</strong>. Registering needs
          proof from Google that your own Google account can open the sheet (a read-only registration) or edit it (a
          read-and-write one): the first time, Google asks you to let SheetAPI see the files you choose with it (
          <code>drive.file</code>), nothing else in your Drive. A pasted address or id (the dashboard,{" "}
          <code>POST /register</code>, <code>/auth/google?sheet_url=…</code>) works for a sheet you have already chosen;
          any other is refused with a way to choose it.
        </p>
        <p>
          The API writes only to sheets you proved you can edit. Shared with the service&apos;s Google account as
          Editor, the sheet is reached with that account; otherwise through your own Google grant. If someone registered
          your sheet with view access only, registering it with edit access claims it: their keys stop. Between two
          editors, the first registration stands.
        </p>
        <p>
          Row 1 of each tab holds the column names. Blank header cells are not columns; a repeated name gets a suffix (
          <code>email</code>, <code>email_2</code>). Column types (string, number, boolean, date, datetime, currency,
          percent) are inferred from the cells. After changing the header row, refresh the schema from the dashboard or
          with <code>POST /api/&#123;sheetId&#125;/refresh-schema</code>.
        </p>
      </Section>
      <Section id="keys" title="Keys and permissions" reference="/docs/reference/api#api-keys">
        <p>
          Requests carry a key in the <code>X-API-Key</code> header, or as{" "}
          <code>Authorization: Bearer &lt;key&gt;</code> for tools that only know bearer tokens (both at once must hold
          the same key). Create keys per sheet in the dashboard; a key&apos;s value is shown once and only its hash is
          stored. Each key holds any of four permissions, which you can change at any time: <strong>Read</strong> (GET
          rows), <strong>Write</strong> (POST, PUT, PATCH, DELETE rows; a PATCH or DELETE that chooses rows by{" "}
          <code>?filter=</code> reads and answers them, so it needs Read as well), <strong>Schema</strong> (view and
          refresh the schema), <strong>Analytics</strong> (<code>GET /billing/usage</code>). Revoking a key is permanent
          and takes effect on the next request. A missing, invalid or revoked key, or a key of another sheet, answers
          401; a key without the permission answers 403.
        </p>
        <p>
          Those are <strong>secret keys</strong> (<code>shk_…</code>): keep them on a server, where nobody else can read
          them.
        </p>
        <p id="browser-keys">
          <strong>Browser (publishable) keys</strong> (<code>shp_…</code>, chosen when the key is created) are made to
          ship in a web page&apos;s code. They only read (lists, CSV, one row, <code>_aggregate</code>,{" "}
          <code>_distinct</code>), only from the origins the owner lists (<code>https://www.example.com</code>, or{" "}
          <code>https://*.example.com</code> for its subdomains; any other <code>Origin</code> answers 403), optionally
          only chosen tabs and columns, always from the cache, and with an allowance per visitor address on top of the
          plan&apos;s limits. Anyone can copy a browser key and send any <code>Origin</code> from a script, so let it
          read only what you would publish.{" "}
          <Link href="/docs/reference/api#browser-publishable-keys" className="underline">
            Browser keys in full
          </Link>
          .
        </p>
      </Section>
      <Section id="ids" title="Rows and ids" reference="/docs/reference/api#ids">
        <p>
          A row is a JSON object keyed by the column names. Values come as the sheet displays them (
          <code>&quot;$24.50&quot;</code>, <code>&quot;TRUE&quot;</code>); an empty cell is <code>&quot;&quot;</code>;
          add <code>?typed=true</code> for numbers, booleans and nulls, and dates in ISO 8601 (
          <code>&quot;2024-01-15&quot;</code>, or with the sheet&apos;s time-zone offset for date-time columns) built
          from the cell&apos;s underlying value, so a display without the year such as <code>Jan 15</code> still gives
          the full date. Filters and sorts on date columns compare the same values. <code>?formulas=true</code> answers
          the formula (<code>&quot;=B2*C2&quot;</code>) of each cell that holds one, for keys the sheet&apos;s owner
          allowed to read formulas (dashboard, API keys, &quot;Can read formulas&quot;); other keys get 403{" "}
          <code>forbidden</code>.
        </p>
        <p>
          If a tab has a column named exactly <code>id</code>, its values identify rows:{" "}
          <code>/api/v1/&#123;sheetId&#125;/&#123;tab&#125;/&#123;id&#125;</code>. A created row without an id gets the
          next integer above the largest one, atomically. An id you give is kept exactly as sent:{" "}
          <code>&quot;02&quot;</code> stays <code>02</code>, and ids of 16 or more digits are kept as text, whole. Tabs
          without an id column identify rows by their row number (header = 1, first row = 2); those numbers move when
          rows above are inserted or deleted, so prefer an id column for data that changes. There, send{" "}
          <code>If-Match</code> with the row&apos;s <code>ETag</code> on <code>PUT</code> and <code>DELETE</code>: if
          another row now has that number, the answer is 412 and nothing is written; without it, the request acts on the
          row now at that number.
        </p>
      </Section>
      <Section id="filters" title="Filters, sorting and paging" reference="/docs/reference/api#listing">
        <p>
          <code>limit</code> (1-1,000, default 100) and <code>offset</code> page through rows; <code>meta.total</code>{" "}
          counts all matching rows. <code>sort</code> takes a column (by value when all its values are numbers or dates,
          read in the sheet&apos;s locale; empty values last) and <code>order</code> asc or desc (without{" "}
          <code>sort</code>, <code>order=desc</code> gives the sheet&apos;s last rows first). <code>select=a,b</code>{" "}
          returns only those columns.
        </p>
        <p>
          <code>filter</code> holds conditions joined by <code>,</code>, all of which must hold: <code>=</code> (exact;{" "}
          <code>status=open|held</code> matches either; <code>notes=</code> matches empty cells), <code>!=</code> (
          <code>status!=open|held</code> matches neither; <code>notes!=</code> matches filled cells), <code>&gt;</code>{" "}
          <code>&gt;=</code> <code>&lt;</code> <code>&lt;=</code> (by value when both sides are numbers, or dates in a
          date column; <code>1.234,5</code> in a de_DE sheet is 1234.5), <code>~</code> (contains, case-insensitive) and{" "}
          <code>~=</code> (equal ignoring case, where <code>*</code> stands for any text: <code>name~=desk*</code>{" "}
          starts with “desk”, <code>name~=*lamp</code> ends with “lamp”, <code>name~=*oak*</code> contains “oak”). In
          number, currency, percent and date columns <code>=</code> and <code>!=</code> compare by value, so{" "}
          <code>price=24.5|399</code> and <code>released=2024-02-13|2024-04-18</code> are lists of values, whatever the
          display; ids always match exactly, as the row route reads them (<code>id=05</code> is not row 5). Escape{" "}
          <code>,</code> <code>|</code> and <code>\</code> inside a value with <code>\</code> (and a literal{" "}
          <code>*</code> in <code>~=</code> as <code>\*</code>). Remember to URL-encode the whole parameter.
        </p>
        <p>
          <strong>OR.</strong> Each <code>or</code> parameter holds conditions of which at least one must hold, across
          any columns: <code>?filter=in_stock=TRUE&amp;or=name~=*lamp*,price&lt;20</code> is “in stock, and either a
          lamp or under 20”. Several <code>or</code> parameters must each hold.{" "}
          <strong>Sorting by several columns:</strong> <code>sort=in_stock,price&amp;order=asc,desc</code> (one
          direction for all, or one per column; later columns break ties).
        </p>
        <p>
          An unknown query parameter answers 400 naming it, so a typo such as <code>fitler=</code> never returns the
          whole tab unnoticed. Parameters whose names start with <code>_</code> are the exception: browsers and tools
          add them to defeat caches (jQuery&apos;s <code>_=1700000000000</code>), and they are ignored.
        </p>
      </Section>
      <Section id="aggregates" title="Counts, totals and distinct values" reference="/docs/reference/api#aggregates">
        <p>
          <code>GET /api/v1/&#123;sheetId&#125;/&#123;tab&#125;/_aggregate</code> answers counts and totals of the rows{" "}
          <code>filter</code> and <code>or</code> keep, from the same cached copy as lists (no Google call while it is
          current): <code>?group_by=in_stock&amp;aggregate=count,sum:price,avg:price</code> gives{" "}
          <code>
            &#123; &quot;data&quot;: [&#123; &quot;group&quot;: &#123; &quot;in_stock&quot;: &quot;TRUE&quot; &#125;,
            &quot;count&quot;: 4, &quot;sum&quot;: &#123; &quot;price&quot;: 691.5 &#125;, &quot;avg&quot;: &#123;
            &quot;price&quot;: 172.875 &#125; &#125;, …], &quot;meta&quot;: &#123; &quot;groups&quot;: 2,
            &quot;rows&quot;: 6, … &#125; &#125;
          </code>
          . <code>group_by</code> takes one column or several (comma-separated; none gives one group of all matching
          rows), and groups come in the order of their values. <code>sum</code>, <code>avg</code>, <code>min</code> and{" "}
          <code>max</code> take number, currency and percent columns, read by value in the sheet&apos;s locale (
          <code>$24.50</code> and <code>24,50 €</code> are 24.5, <code>15%</code> is 0.15); empty cells and text that is
          not a number are left out (<code>avg</code> divides by the cells counted), and a group without any number
          gives <code>null</code>. <code>limit</code> (default 1,000, up to 10,000) and <code>offset</code> page the
          groups; <code>typed=true</code> types the group values.
        </p>
        <p>
          <code>GET …/&#123;tab&#125;/_distinct?column=status</code> lists each value of a column once, in order, among
          the matching rows: what a dropdown offers. Both paths start with <code>_</code>, so a row whose id is{" "}
          <code>_aggregate</code> or <code>_distinct</code> cannot be read by id.
        </p>
      </Section>
      <Section id="formats" title="CSV, caching and freshness" reference="/docs/reference/api#csv-caching-freshness">
        <p>
          <strong>CSV.</strong> Send <code>Accept: text/csv</code>, or add <code>.csv</code> to the tab in the path (
          <code>/api/v1/&#123;sheetId&#125;/Products.csv</code>) for tools that cannot set <code>Accept</code>. The
          answer is the same query as RFC 4180 CSV in UTF-8 with a header line: every matching row by default, up to
          100,000, with <code>X-Total-Count</code>. A cell that a spreadsheet would run as a formula (starting with{" "}
          <code>=</code>, <code>+</code>, <code>-</code> or <code>@</code>, numbers aside) gets a leading{" "}
          <code>&apos;</code>. Errors stay JSON.
        </p>
        <p>
          <strong>Caching.</strong> Rows are served from a copy that writes through the API refresh at once; edits made
          in Google Sheets show within the sheet&apos;s cache time (10 s by default).{" "}
          <code>Cache-Control: no-cache</code>, or <code>?fresh=true</code> in the URL, reads the sheet from Google now.
          Every read carries <code>ETag</code> (send it back in <code>If-None-Match</code> for a 304),{" "}
          <code>X-Cache</code> (<code>HIT</code>, <code>MISS</code> or <code>STALE</code>), <code>Last-Modified</code>{" "}
          (when the answered rows were read from Google: the answer shows the sheet as it was then) and <code>Age</code>{" "}
          (seconds since that read).
        </p>
      </Section>
      <Section id="writes" title="Writes" reference="/docs/reference/api#writes">
        <p>
          Send JSON with <code>Content-Type: application/json</code>, at most 1 MB. <code>POST</code> takes one row or
          an array of up to 1,000 and writes them in one atomic write, after the tab&apos;s last row; <code>PUT</code>{" "}
          changes only the cells you name; <code>DELETE</code> removes exactly the row with that id. Strings are stored
          as text exactly as sent, never run as formulas, unless the sheet&apos;s owner opted it in to entering them as
          if typed in Google Sheets (dashboard, the sheet&apos;s page): then <code>&quot;42&quot;</code> is stored as a
          number, <code>&quot;2024-01-15&quot;</code> as a date, <code>&quot;TRUE&quot;</code> as a boolean and{" "}
          <code>&quot;=B2*2&quot;</code> as a formula, and answers show the rows as the sheet then displays them. The
          sheet&apos;s own docs page says which. A field that is not a column, or a value that is not a string, number,
          boolean or null, answers 400 naming it, and nothing of the request is written.
        </p>
        <p>
          <strong>Writes by value.</strong> When you know an email or a SKU rather than the row&apos;s id, one request
          does it, atomically under the tab&apos;s lock (no read-then-write race, one request counted):
        </p>
        <ul className="list-disc space-y-1 pl-6">
          <li>
            <code>PATCH /api/v1/&#123;sheetId&#125;/&#123;tab&#125;?filter=email=ada@example.com</code> with{" "}
            <code>&#123;&quot;plan&quot;: &quot;pro&quot;&#125;</code> writes those cells in every matching row. The
            filter is required (the list&apos;s language, <code>or</code> too), and <code>limit</code> (default 1, up to
            1,000) is the most rows it may change: more matches answer 409 and change nothing, so a filter that is wider
            than meant never rewrites a tab. <code>dry_run=true</code> answers the matches (<code>matched</code>, the
            rows, their <code>etags</code>) without writing.
          </li>
          <li>
            <code>DELETE …/&#123;tab&#125;?filter=status=done&amp;limit=50</code> removes every matching row (same
            rules), in one write.
          </li>
          <li>
            <code>PATCH …/&#123;tab&#125;</code> with an array gives each row its own values: each item finds its row by{" "}
            <code>?key=</code> (default <code>id</code>), e.g. <code>?key=sku</code> with{" "}
            <code>
              [&#123;&quot;sku&quot;: &quot;A-1&quot;, &quot;stock&quot;: 3&#125;, &#123;&quot;sku&quot;:
              &quot;B-2&quot;, &quot;stock&quot;: 0&#125;]
            </code>
            . A key no row has answers 404 and nothing is written.
          </li>
          <li>
            <code>POST …/&#123;tab&#125;?upsert=email</code> with one row or an array: a row whose key matches a row of
            the tab updates that row&apos;s named cells, the others are appended with new ids; 201 when any row was
            created, 200 when all were updates. A key that finds two rows answers 409.
          </li>
        </ul>
        <p>
          Keys match as filters do: the text the sheet shows, or the value in number and date columns. All of these take{" "}
          <code>If-Match</code> with the ETags of the rows as you read them (comma-separated, e.g. a dry run&apos;s{" "}
          <code>etags</code>): if any row about to change is not among them, 412 and nothing is written. They take{" "}
          <code>Idempotency-Key</code> as creates do, and settle a write Google did not confirm before anything else is
          sent to the tab.
        </p>
      </Section>
      <Section id="limits" title="Plans and rate limits" reference="/docs/reference/api#plans-and-limits">
        <p>
          Limits belong to the account and are shared by all its keys and sheets. Burst is a sliding 60-second window;
          hours and days are UTC; the billing period repeats monthly from sign-up. A{" "}
          <a href="#browser-keys" className="underline">
            browser key
          </a>{" "}
          also limits each visitor address per UTC minute; its 429 says so and carries the same headers.
        </p>
        <ScrollArea label="Plans and their limits">
          <table className="w-full min-w-[28rem] text-left text-sm" data-testid="guide-plans">
            <thead className="text-xs text-slate-500 dark:text-slate-400">
              <tr>
                <th className="py-1 font-normal">Plan</th>
                <th className="py-1 font-normal">Per period</th>
                <th className="py-1 font-normal">Per day</th>
                <th className="py-1 font-normal">Per hour</th>
                <th className="py-1 font-normal">Per minute</th>
              </tr>
            </thead>
            <tbody>
              {Object.values(PLANS).map((p) => (
                <tr key={p.label} className="border-t border-slate-100 dark:border-slate-800">
                  <td className="py-1.5">{p.label}</td>
                  <td>{n(p.month)}</td>
                  <td>{n(p.day)}</td>
                  <td>{n(p.hour)}</td>
                  <td>{n(p.burst)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollArea>
        <p>
          Answers 2xx and 4xx count; 401, 429 and 5xx do not. Every answer carries <code>X-RateLimit-Limit</code>,{" "}
          <code>X-RateLimit-Remaining</code> and <code>X-RateLimit-Reset</code> for the window closest to its limit; a
          401 carries instead the allowance of bad keys left to your address this minute.{" "}
          <code>GET /billing/usage</code> reports the period&apos;s use, is not counted, and answers even past a limit.
        </p>
      </Section>
      <Section id="errors" title="Errors" reference="/docs/reference/api#errors">
        <p>
          Every answer carries <code>success</code>. Errors are{" "}
          <code>&#123; &quot;success&quot;: false, &quot;error&quot;: code, &quot;message&quot;: text &#125;</code> with{" "}
          <code>X-Request-Id</code>; codes: <code>validation_error</code> 400, <code>unauthorized</code> 401,{" "}
          <code>forbidden</code> 403, <code>not_found</code> 404, <code>conflict</code> 409,{" "}
          <code>payload_too_large</code> 413, <code>unsupported_media_type</code> 415, <code>rate_limit_exceeded</code>{" "}
          429, <code>server_error</code> 500, <code>bad_gateway</code> 502, <code>service_unavailable</code> 503,{" "}
          <code>gateway_timeout</code> 504.
        </p>
      </Section>
      <Section id="retries" title="Retries" reference="/docs/reference/api#google-failures">
        <p>
          On 429, wait <code>Retry-After</code> seconds (also in the body as <code>retry_after</code>). On 502, 503 and
          504, retry reads with exponential backoff and jitter (1 s, 2 s, 4 s…). A write answered 503 was not applied:
          retry it. A write answered 504 has an unknown outcome (Google may still apply it, once, and never after a
          later write to the tab): its message says how to check (the row&apos;s id); a create retried with the same{" "}
          <code>Idempotency-Key</code> is never written twice. The service itself settles every write Google did not
          confirm before sending anything again, and never writes a row twice.
        </p>
      </Section>
      <Section id="webhooks" title="Webhooks and events" reference="/docs/reference/webhooks">
        <p>
          On a sheet&apos;s dashboard page, <em>Webhooks</em> adds endpoints (their URL, and optionally the events and
          tabs they want). Each change to a row becomes an event: <code>row.created</code>, <code>row.updated</code>{" "}
          (with <code>changes</code>: each changed column&apos;s <code>before</code> and <code>after</code>),{" "}
          <code>row.deleted</code>, <code>schema.changed</code> (the header row). Its <code>source</code> is{" "}
          <code>api</code> for writes through the API, sent before the write answers, or <code>sheet</code> for edits
          made in Google Sheets, found when the service next reads the tab (within the sheet&apos;s cache TTL, 10 s by
          default, of the next read). Rows are matched by <code>id</code>, so a row moved in the sheet is no event; on a
          tab without an id column, inserting or deleting a row above others is one event.
        </p>
        <p>
          Deliveries follow Standard Webhooks: a POST of <code>&#123; type, timestamp, data &#125;</code> with{" "}
          <code>webhook-id</code> (the event id: deduplicate by it), <code>webhook-timestamp</code> and{" "}
          <code>webhook-signature</code>, an HMAC-SHA256 with the endpoint&apos;s secret; verify it with any Standard
          Webhooks library. <strong>Send test event</strong> on the webhooks page sends one signed{" "}
          <code>webhook.test</code> event at once. A 2xx within 10 s is success; otherwise the delivery is retried with
          exponential backoff for a day, and a row&apos;s events arrive in order. Only public http(s) addresses are
          accepted. Endpoints per sheet: Free Trial 1, Starter 3, Professional 10, Business 25.
        </p>
        <p>
          Clients that poll instead call <code>GET /api/&#123;sheetId&#125;/events?after=&lt;seq&gt;</code> with a key
          holding the Read permission (events carry row values); page on with <code>meta.next_after</code>. The first
          call starts recording the sheet&apos;s changes. Events, and the delivery log with them, are kept 30 days (a
          self-hosted install sets <code>EVENT_RETENTION_DAYS</code>); an event an endpoint still waits for is kept
          until it is sent or given up.
        </p>
      </Section>
    </article>
  );
}
