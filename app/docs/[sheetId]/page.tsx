// GET /docs/{sheetId}: the sheet's public API documentation, built from the live schema.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { isSuspension, writesAllowed } from "@/lib/sheets/access/access-lapse";
import {
  enteredAs,
  exampleCreateBody,
  exampleId,
  exampleKeyColumn,
  exampleKeyValue,
  exampleUpdateBody,
  loadSheetDocs,
  tabPath,
  type SheetDocs,
} from "@/lib/docs/sheet-docs";
import { snippetsFor } from "@/lib/docs/snippets";
import type { TabModel } from "@/lib/sheets/values/tab-model";
import { CodeBlock } from "./code-block";
import { ReferenceSections } from "./reference-sections";
import { SheetQuickStart } from "./sheet-quick-start";
import { TryIt } from "./try-it";
import { ScrollArea } from "@/app/components/scroll-area";
import { ownerTryItHref } from "@/app/components/dashboard-links";
import { ownerReadAction } from "@/app/(dashboard)/dashboard/sheets/[sheetId]/actions";
import { currentUser } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ sheetId: string }> };

/** The sheet's docs; "suspended" when its registrant can no longer open it in Google (nothing of it is shown). */
const docsOrSuspended = (sheetId: string) =>
  loadSheetDocs(sheetId).catch((err: unknown) => {
    if (isSuspension(err)) return "suspended" as const;
    throw err;
  });

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const docs = await docsOrSuspended((await params).sheetId);
  if (docs === "suspended") return { title: "API suspended · SheetAPI" };
  return { title: docs ? `${docs.model.title} API · SheetAPI` : "Sheet not found · SheetAPI" };
}

function Endpoint({
  method,
  path,
  permission,
  children,
}: {
  method: string;
  path: string;
  permission: string;
  children?: React.ReactNode;
}) {
  const color = {
    GET: "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-200",
    PATCH: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200",
    POST: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
    PUT: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200",
    DELETE: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
  }[method];
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className={`rounded px-2 py-0.5 font-mono text-xs font-semibold ${color}`}>{method}</span>
        <code className="break-all">{path}</code>
        <span className="text-xs text-slate-500 dark:text-slate-400">needs {permission}</span>
      </div>
      {children}
    </div>
  );
}

function TabSection({ docs, tab }: { docs: SheetDocs; tab: TabModel }) {
  const base = `${docs.baseUrl}${tabPath(docs, tab)}`;
  const ex = docs.examples.get(tab.name);
  const id = exampleId(docs, tab);
  const firstText = exampleKeyColumn(tab);
  // A filter on a made-up value would find nothing: only the sheet's own values make one.
  const listQuery =
    firstText && ex?.real && ex.rows[0]?.[firstText.name]
      ? `?filter=${encodeURIComponent(`${firstText.name}=${ex.rows[0][firstText.name]}`)}&limit=10`
      : "?limit=10";
  const csvColumns = tab.columns
    .filter((c) => c.name !== "id")
    .slice(0, 2)
    .map((c) => c.name);
  const csvQuery = csvColumns.length ? `?select=${encodeURIComponent(csvColumns.join(","))}` : "";
  const groupColumn = tab.columns.find((c) => c.name !== "id" && (c.type === "string" || c.type === "boolean"));
  const numberColumn = tab.columns.find((c) => c.name !== "id" && ["number", "currency", "percent"].includes(c.type));
  const aggregateQuery = [
    ...(groupColumn ? [`group_by=${encodeURIComponent(groupColumn.name)}`] : []),
    `aggregate=${encodeURIComponent(numberColumn ? `count,sum:${numberColumn.name},avg:${numberColumn.name}` : "count")}`,
  ].join("&");
  const keyColumn = firstText;
  const keyValue = exampleKeyValue(docs, tab);
  // The answer shown is the example request's own: its filter (exact match on the first text
  // column) and limit applied to the example rows.
  const filterValue = firstText ? ex?.rows[0]?.[firstText.name] : undefined;
  const matching = (ex?.rows ?? []).filter((r) => !firstText || !filterValue || r[firstText.name] === filterValue);
  const shown = matching.slice(0, 10);
  const listAnswer = {
    success: true,
    data: shown,
    meta: { total: matching.length, limit: 10, offset: 0, returned: shown.length },
  };
  return (
    <section
      id={`tab-${encodeURIComponent(tab.name)}`}
      data-testid="docs-tab"
      data-tab-name={tab.name}
      className="space-y-6 border-t border-slate-200 pt-10 dark:border-slate-800"
    >
      <div>
        <h2 className="text-xl font-semibold" data-testid="docs-tab-name">
          {tab.name}
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {tab.hasIdColumn
            ? "Rows are identified by their id column; a created row without an id gets the next integer."
            : "This tab has no id column: rows are identified by their row number in the sheet (header = 1, first row = 2). Row numbers move when rows above are inserted or deleted: send If-Match with the row's ETag from your read, and a PUT or DELETE answers 412 instead of reaching another row; without If-Match it acts on whichever row is now at that number."}
        </p>
      </div>
      <ScrollArea label={`Columns of ${tab.name}`}>
        <table className="w-full text-left text-sm">
          <thead className="text-xs text-slate-500 dark:text-slate-400">
            <tr>
              <th className="py-1 pr-4 font-normal">Column</th>
              <th className="py-1 pr-4 font-normal">Type</th>
              <th className="py-1 font-normal">Example{ex?.real ? "" : " (made up)"}</th>
            </tr>
          </thead>
          <tbody>
            {tab.columns.map((c) => (
              <tr key={c.name} data-testid="docs-column" className="border-t border-slate-100 dark:border-slate-800">
                {/* A long name wraps within its share, so Type and Example stay in view on a phone. */}
                <td className="max-w-[40vw] py-1.5 pr-4 font-mono [overflow-wrap:anywhere]">{c.name}</td>
                <td className="py-1.5 pr-4 whitespace-nowrap">
                  <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs dark:bg-slate-800">{c.type}</span>
                </td>
                {/* Wraps too: on a phone the three columns share the screen, none scrolled out of it. */}
                <td className="py-1.5 font-mono text-xs text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400">
                  {String(ex?.rows[0]?.[c.name] ?? "")}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollArea>
      <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="docs-values-note">
        Values come back as the sheet shows them, as text (<code>&quot;42&quot;</code>, <code>&quot;TRUE&quot;</code>,{" "}
        <code>&quot;&quot;</code> for an empty cell); add <code>?typed=true</code> to a read for numbers, booleans and
        nulls by the types above.
      </p>
      <Endpoint method="GET" path={`${tabPath(docs, tab)}`} permission="Read">
        <CodeBlock snippets={snippetsFor({ method: "GET", url: `${base}${listQuery}` })} />
        <details className="text-sm">
          <summary className="cursor-pointer text-slate-600 dark:text-slate-400">Answer</summary>
          <pre tabIndex={0} className="mt-2 overflow-x-auto rounded-md bg-slate-50 p-3 text-xs dark:bg-slate-900">
            {JSON.stringify(listAnswer, null, 2)}
          </pre>
        </details>
      </Endpoint>
      <Endpoint method="GET" path={`${tabPath(docs, tab)}.csv`} permission="Read">
        <p className="text-sm text-slate-600 dark:text-slate-400">
          The same query as CSV (or send <code>Accept: text/csv</code> to the path above); every matching row by
          default, up to 100,000.
        </p>
        <CodeBlock snippets={snippetsFor({ method: "GET", url: `${base}.csv${csvQuery}` })} />
      </Endpoint>
      <Endpoint method="GET" path={`${tabPath(docs, tab)}/_aggregate`} permission="Read">
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Count, and sum, avg, min, max of number columns, over the rows <code>filter</code> keeps, grouped by{" "}
          <code>group_by</code>; from the cached copy. Answers{" "}
          <code>{"{ data: [{ group, count, sum, avg, … }], meta: { groups, rows, … } }"}</code>.
        </p>
        <CodeBlock snippets={snippetsFor({ method: "GET", url: `${base}/_aggregate?${aggregateQuery}` })} />
      </Endpoint>
      {groupColumn && (
        <Endpoint method="GET" path={`${tabPath(docs, tab)}/_distinct`} permission="Read">
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Each value of a column once, in order, among the rows <code>filter</code> keeps: what a dropdown offers.
          </p>
          <CodeBlock
            snippets={snippetsFor({
              method: "GET",
              url: `${base}/_distinct?column=${encodeURIComponent(groupColumn.name)}`,
            })}
          />
        </Endpoint>
      )}
      <Endpoint method="GET" path={`${tabPath(docs, tab)}/{rowId}`} permission="Read">
        <CodeBlock snippets={snippetsFor({ method: "GET", url: `${base}/${encodeURIComponent(id)}` })} />
      </Endpoint>
      <p
        className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
        data-testid="docs-writes-warning"
      >
        The write examples below change the real sheet. Run in order, the create adds a row
        {keyColumn ? (
          <>
            {" "}
            whose <code>{keyColumn.name}</code> is <code>{keyValue}</code>
          </>
        ) : null}
        , and the PATCH, upsert and DELETE by filter act on that row only; PUT acts on the row with id <code>{id}</code>
        , and DELETE by id on the row whose id you put in place of <code>ROW_ID</code> (the id the create answered, for
        instance).
      </p>
      <Endpoint method="POST" path={tabPath(docs, tab)} permission="Write">
        <p className="text-sm text-slate-600 dark:text-slate-400">
          One row, or an array of up to 1,000 rows in one write. Answers 201 with <code>{"{ created, rows }"}</code>.{" "}
          {enteredAs(docs.sheet)}
        </p>
        <CodeBlock snippets={snippetsFor({ method: "POST", url: base, body: exampleCreateBody(docs, tab) })} />
      </Endpoint>
      {keyColumn && (
        <>
          <Endpoint method="PATCH" path={`${tabPath(docs, tab)}?filter=…`} permission="Write and Read">
            <p className="text-sm text-slate-600 dark:text-slate-400">
              The named cells of every row the filter matches, in one write: at most <code>limit</code> rows (default 1;
              more matches change nothing and answer 409); <code>dry_run=true</code> only counts. The rows are chosen by
              their values and answered, so the key needs Read as well. An array body instead updates each row found by{" "}
              <code>?key={keyColumn.name}</code> with its own values (Write and Read; keyed by <code>id</code>, Write
              alone).
            </p>
            <CodeBlock
              snippets={snippetsFor({
                method: "PATCH",
                url: `${base}?filter=${encodeURIComponent(`${keyColumn.name}=${keyValue}`)}`,
                body: exampleUpdateBody(docs, tab),
              })}
            />
          </Endpoint>
          <Endpoint method="POST" path={`${tabPath(docs, tab)}?upsert=${keyColumn.name}`} permission="Write and Read">
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Upsert: rows whose <code>{keyColumn.name}</code> matches are updated cell by cell, the others appended, in
              one write.
            </p>
            <CodeBlock
              snippets={snippetsFor({
                method: "POST",
                url: `${base}?upsert=${encodeURIComponent(keyColumn.name)}`,
                body: [exampleCreateBody(docs, tab)],
              })}
            />
          </Endpoint>
          <Endpoint method="DELETE" path={`${tabPath(docs, tab)}?filter=…`} permission="Write and Read">
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Every row the filter matches, in one write, with the same <code>limit</code> and <code>dry_run</code>.
            </p>
            <CodeBlock
              snippets={snippetsFor({
                method: "DELETE",
                url: `${base}?filter=${encodeURIComponent(`${keyColumn.name}=${keyValue}`)}&dry_run=true`,
              })}
            />
          </Endpoint>
        </>
      )}
      <Endpoint method="PUT" path={`${tabPath(docs, tab)}/{rowId}`} permission="Write">
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Changes only the cells named in the body; answers the whole row.
        </p>
        <CodeBlock
          snippets={snippetsFor({
            method: "PUT",
            url: `${base}/${encodeURIComponent(id)}`,
            body: exampleUpdateBody(docs, tab),
          })}
        />
      </Endpoint>
      <Endpoint method="DELETE" path={`${tabPath(docs, tab)}/{rowId}`} permission="Write">
        {/* Not a real row's id: a pasted example must not delete a row of the sheet unasked. */}
        <CodeBlock snippets={snippetsFor({ method: "DELETE", url: `${base}/ROW_ID` })} />
      </Endpoint>
    </section>
  );
}

export default async function SheetDocsPage({ params }: Props) {
  const [docs, viewer] = await Promise.all([docsOrSuspended((await params).sheetId), currentUser()]);
  if (!docs) notFound();
  if (docs === "suspended") {
    return (
      <div className="space-y-3" data-testid="docs-suspended">
        <h1 className="text-3xl font-bold">API documentation</h1>
        <p className="text-slate-600 dark:text-slate-400">
          This sheet&apos;s API is suspended: the Google account that registered it can no longer open it in Google
          Sheets, so nothing of it is shown or served until that account has access again.
        </p>
      </div>
    );
  }
  // The owner reading their own docs tries requests through their session, as in the dashboard:
  // their first hour's exploring must not spend the plan their first app needs.
  const viewerOwnsSheet = viewer?.id === docs.sheet.userId;
  const anyReal = [...docs.examples.values()].some((e) => e.real);
  return (
    <div className="space-y-10 [&_code]:[overflow-wrap:anywhere]">
      <header className="space-y-3">
        <p className="text-sm text-slate-500 dark:text-slate-400">API documentation</p>
        <h1 className="text-3xl font-bold" data-testid="docs-title">
          {docs.model.title}
        </h1>
        <p className="text-slate-600 dark:text-slate-400">
          Each tab of this spreadsheet is a JSON collection and each row an item. Base address{" "}
          <code className="break-all">{docs.baseUrl}</code>; every request sends its key in the <code>X-API-Key</code>{" "}
          header (or as <code>Authorization: Bearer</code>).{" "}
          {writesAllowed(docs.sheet)
            ? "Keys with the Write permission can create, update and delete rows."
            : "This sheet is read-only: write requests answer 403 until the owner makes it writable."}
        </p>
        <nav className="flex flex-wrap gap-2 text-sm">
          {docs.model.tabs.map((t) => (
            <a
              key={t.name}
              href={`#tab-${encodeURIComponent(t.name)}`}
              className="rounded-full border border-slate-200 px-3 py-1 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-900"
            >
              {t.name}
            </a>
          ))}
          <a
            href={`/docs/${docs.sheet.id}/openapi.json`}
            data-testid="openapi-link"
            className="rounded-full border border-slate-200 px-3 py-1 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-900"
          >
            OpenAPI 3.1
          </a>
          <Link
            href="/docs"
            className="rounded-full border border-slate-200 px-3 py-1 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-900"
          >
            Guide
          </Link>
        </nav>
        {!anyReal && (
          <p className="text-xs text-slate-500 dark:text-slate-400">
            Example values are made up from the column types: this page is public and shows a sheet&apos;s own values
            only when anyone with its link can view it and its owner allows it.
          </p>
        )}
        {docs.plan.id === "free_trial" && (
          // The examples below outnumber a trial's hour: say so before the first 429 does.
          <p
            role="note"
            data-testid="trial-note"
            className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
          >
            This sheet&apos;s owner is on the Free Trial: {docs.plan.burst} requests a minute and {docs.plan.hour} an
            hour, and every example you run with a key counts. To explore, the owner can{" "}
            <a href={ownerTryItHref(docs.sheet.id)} className="underline">
              try requests from the dashboard
            </a>
            , which does not count, or choose a larger plan.
          </p>
        )}
      </header>
      <SheetQuickStart docs={docs} />
      <section className="space-y-3">
        <h2 className="text-xl font-semibold">Try it</h2>
        {viewerOwnsSheet ? (
          <>
            <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="docs-owner-note">
              You own this sheet: requests here read as you, through your session, and are not counted against your
              plan. Visitors paste a key instead.
            </p>
            <TryIt sheetId={docs.sheet.id} tabs={docs.model.tabs.map((t) => t.name)} asOwner={ownerReadAction} />
          </>
        ) : (
          <>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Paste a key with the Read permission and run a request from this page. The sheet&apos;s owner can also{" "}
              <a href={ownerTryItHref(docs.sheet.id)} className="underline" data-testid="owner-try-link">
                try it from the dashboard
              </a>
              , which does not count against the plan.
            </p>
            <TryIt
              sheetId={docs.sheet.id}
              tabs={docs.model.tabs.map((t) => t.name)}
              planNote={`${docs.plan.label}: ${docs.plan.burst.toLocaleString("en-US")} a minute, ${docs.plan.hour.toLocaleString("en-US")} an hour, ${docs.plan.day.toLocaleString("en-US")} a day`}
            />
          </>
        )}
      </section>
      {docs.model.tabs.map((tab) => (
        <TabSection key={tab.name} docs={docs} tab={tab} />
      ))}
      <ReferenceSections docs={docs} />
    </div>
  );
}
