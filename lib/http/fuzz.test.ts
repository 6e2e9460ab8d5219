// Hostile input at every route, property-based (fast-check, fixed seed, bounded runs). Invariants:
// never a 5xx, never a hang, always the spec's envelope, and a rejected write leaves the
// spreadsheet exactly as it was.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { ERROR_STATUS } from "@/lib/errors";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { startTestService, type TestService } from "@/testing/service";
import { registeredKey } from "@/testing/google";

const SEED = 20261122;
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const CALL_TIMEOUT_MS = 15_000;
let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService({
    env: { RATE_LIMIT_MULTIPLIER: "1000", GOOGLE_RETRY_BUDGET_MS: "200", CHANGE_CHECK_INTERVAL_MS: "600000" },
  });
  setLimitStore(memoryStore());
  const user = await createUser({ email: "fuzz@example.com", plan: "business" });
  key = await registeredKey(user, DEMO_SPREADSHEET_ID);
});
afterAll(async () => {
  setLimitStore(undefined);
  await svc.stop();
});

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const modules = {
  rows: () => import("@/app/api/v1/[sheetId]/[tabName]/route"),
  row: () => import("@/app/api/v1/[sheetId]/[tabName]/[rowId]/route"),
  schema: () => import("@/app/api/[sheetId]/schema/route"),
  refresh: () => import("@/app/api/[sheetId]/refresh-schema/route"),
  usage: () => import("@/app/billing/usage/route"),
  info: () => import("@/app/api/route"),
  unknown: () => import("@/app/[...path]/route"),
};

async function call(
  mod: keyof typeof modules,
  method: string,
  path: string,
  params: Record<string, string>,
  headers: Record<string, string>,
  body?: BodyInit,
) {
  const handler = (await modules[mod]())[method as "GET"] as unknown as Handler | undefined;
  if (!handler) return undefined;
  let url: string;
  try {
    url = new URL(path, "http://localhost").toString();
  } catch {
    return undefined;
  }
  const req = new Request(url, {
    method,
    headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
  let timer: NodeJS.Timeout | undefined;
  const res = await Promise.race([
    handler(req, { params: Promise.resolve(params) }),
    new Promise<never>(
      (_, reject) =>
        (timer = setTimeout(
          () => reject(new Error(`no answer within ${CALL_TIMEOUT_MS} ms: ${method} ${path}`)),
          CALL_TIMEOUT_MS,
        )),
    ),
  ]).finally(() => clearTimeout(timer));
  return { status: res.status, text: await res.text(), headers: res.headers };
}

const seen = new Map<number, number>();

/** The spec's envelope on every answer with a body; never a 5xx. */
function checkAnswer(answer: { status: number; text: string } | undefined, what: string) {
  if (!answer) return;
  seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
  expect(answer.status, what).toBeLessThan(500);
  if (answer.status === 204 || answer.status === 304) return;
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  expect(typeof body.success, what).toBe("boolean");
  if (answer.status >= 400) {
    expect(body.success, what).toBe(false);
    expect(Object.keys(ERROR_STATUS), what).toContain(body.error);
    expect(typeof body.message, what).toBe("string");
  }
}

const sheetState = async () => JSON.stringify((await svc.admin(`/spreadsheets/${DEMO_SPREADSHEET_ID}`)).tabs);

// --- Generators ---------------------------------------------------------------------------------
const columns = [
  "id",
  "name",
  "price",
  "in_stock",
  "released",
  "rating",
  "notes",
  "nope",
  "__proto__",
  "constructor",
  "",
];
const hostileText = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "%",
    "%00",
    "%zz",
    "..%2F..",
    "../../etc/passwd",
    "'; DROP TABLE sheets;--",
    '=IMPORTXML("http://x","//a")',
    "\u202e\u200b",
    "🦄".repeat(50),
    "a".repeat(5000),
    "1e309",
    "-0",
    "NaN",
    "Infinity",
    "0x1F",
    "99999999999999999999999",
  ),
);
const operator = fc.constantFrom("=", "!=", ">", ">=", "<", "<=", "~", "==", "=>", "");
const escaped = hostileText.map((v) => v.replace(/[\\,|]/g, (c) => `\\${c}`));
const condition = fc
  .tuple(
    fc.constantFrom(...columns),
    operator,
    fc.oneof(
      hostileText,
      escaped,
      fc.array(hostileText, { maxLength: 3 }).map((a) => a.join("|")),
    ),
  )
  .map(([c, o, v]) => `${c}${o}${v}`);
const queryValue = fc.oneof(
  hostileText,
  fc.integer().map(String),
  fc.double().map(String),
  fc.bigInt().map(String),
  fc.array(condition, { maxLength: 4 }).map((c) => c.join(",")),
);
const query = fc
  .array(
    fc.tuple(
      fc.constantFrom("limit", "offset", "sort", "order", "filter", "select", "typed", "__proto__", "x"),
      queryValue,
    ),
    { maxLength: 5 },
  )
  .map((pairs) => new URLSearchParams(pairs).toString());

const deep = (depth: number): unknown => (depth === 0 ? "x" : { a: deep(depth - 1) });
const jsonBody = fc
  .oneof(
    fc.jsonValue({ maxDepth: 4 }),
    fc.dictionary(
      fc.constantFrom(...columns),
      fc.oneof(fc.jsonValue({ maxDepth: 2 }), hostileText, fc.double(), fc.integer()),
    ),
    fc.array(fc.dictionary(fc.constantFrom(...columns), hostileText), { maxLength: 3 }),
    fc.constantFrom(
      deep(500),
      { ["__proto__"]: { polluted: true } },
      JSON.parse('{"__proto__": {"name": "x"}, "name": "y"}'),
      Array.from({ length: 1001 }, () => ({ name: "x" })),
      { name: 1e308 * 10 },
    ),
  )
  .map((v) => JSON.stringify(v) ?? "null");
// Rows that are valid, or nearly: real columns with plain values, so runs reach the writes too.
const plainValue = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.constant(null));
const nearlyValidRow = fc.dictionary(
  fc.constantFrom("name", "price", "in_stock", "notes", "rating", "nope"),
  plainValue,
  { minKeys: 1, maxKeys: 4 },
);
const rawBody = fc.oneof(
  {
    arbitrary: fc
      .oneof(nearlyValidRow, fc.array(nearlyValidRow, { minLength: 1, maxLength: 3 }))
      .map((v) => JSON.stringify(v)),
    weight: 3,
  },
  { arbitrary: jsonBody, weight: 3 },
  { arbitrary: hostileText, weight: 1 },
  { arbitrary: fc.constantFrom("{", "[1,2", "\uFEFF{}", "null", "true", "1"), weight: 1 },
);
const contentType = fc.oneof(
  { arbitrary: fc.constantFrom("application/json", "application/json; charset=utf-8"), weight: 4 },
  {
    arbitrary: fc.constantFrom(
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data",
      "",
      "application/vnd.api+json",
      "APPLICATION/JSON",
    ),
    weight: 1,
  },
);
const keyHeader = fc.oneof(
  { arbitrary: fc.constant("VALID"), weight: 4 },
  { arbitrary: hostileText, weight: 1 },
  { arbitrary: fc.constant("shk_0000000000000000000000000000000000000A"), weight: 1 },
);
const segment = fc.oneof(
  { arbitrary: fc.constantFrom("Products", "Team Members", "Orders", "1", "2", "3", "4", "5", "6"), weight: 4 },
  { arbitrary: fc.constantFrom("products", "999", "0", "-1"), weight: 1 },
  { arbitrary: hostileText.filter((s) => s.length > 0 && s.length < 300), weight: 2 },
);

const headersOf = (k: string, extra: Record<string, string> = {}) => {
  const h: Record<string, string> = {};
  const value = k === "VALID" ? key : k;
  // Headers cannot carry every character; a client cannot send those either.
  if (/^[\x20-\x7e]*$/.test(value)) h["X-API-Key"] = value;
  for (const [name, v] of Object.entries(extra)) if (/^[\x20-\x7e]*$/.test(v)) h[name] = v;
  return h;
};

describe("fuzzing every route", () => {
  it("reads: random queries, paths and headers never give a 5xx or break the envelope", async () => {
    await fc.assert(
      fc.asyncProperty(
        segment,
        segment,
        query,
        keyHeader,
        fc.constantFrom("rows", "row", "schema", "usage", "info", "unknown") as fc.Arbitrary<keyof typeof modules>,
        hostileText,
        async (tab, rowId, q, k, mod, ifNoneMatch) => {
          const path =
            mod === "row"
              ? `/api/v1/${DEMO_SPREADSHEET_ID}/${encodeURIComponent(tab)}/${encodeURIComponent(rowId)}?${q}`
              : `/api/v1/${DEMO_SPREADSHEET_ID}/${encodeURIComponent(tab)}?${q}`;
          const params: Record<string, string> =
            mod === "unknown"
              ? { path: [tab, rowId] as unknown as string }
              : { sheetId: DEMO_SPREADSHEET_ID, tabName: tab, rowId };
          checkAnswer(
            await call(mod, "GET", path, params, headersOf(k, { "If-None-Match": ifNoneMatch })),
            `GET ${mod} ${path}`,
          );
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  }, 300_000);

  it("writes: random bodies, content types and headers never give a 5xx, and a rejected write changes nothing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("POST", "PUT", "PATCH", "DELETE"),
        segment,
        segment,
        rawBody,
        contentType,
        keyHeader,
        hostileText,
        hostileText,
        async (method, tab, rowId, body, type, k, ifMatch, idem) => {
          const before = await sheetState();
          const mod = method === "POST" ? "rows" : "row";
          const path = `/api/v1/${DEMO_SPREADSHEET_ID}/${encodeURIComponent(tab)}${mod === "row" ? `/${encodeURIComponent(rowId)}` : ""}`;
          const extra: Record<string, string> = { "Content-Type": type };
          if (ifMatch.length % 3 === 0) extra["If-Match"] = ifMatch;
          if (idem.length % 2 === 0) extra["Idempotency-Key"] = idem;
          const answer = await call(
            mod,
            method,
            path,
            { sheetId: DEMO_SPREADSHEET_ID, tabName: tab, rowId },
            headersOf(k, extra),
            method === "DELETE" ? undefined : body,
          );
          checkAnswer(answer, `${method} ${path} ${body.slice(0, 80)}`);
          if (answer && answer.status >= 400)
            expect(await sheetState(), `${method} ${path} ${body.slice(0, 80)} changed the sheet`).toBe(before);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  }, 300_000);

  it("schema refresh: random keys and bodies give the envelope, never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(rawBody, contentType, keyHeader, async (body, type, k) => {
        checkAnswer(
          await call(
            "refresh",
            "POST",
            `/api/${DEMO_SPREADSHEET_ID}/refresh-schema`,
            { sheetId: DEMO_SPREADSHEET_ID },
            { ...headersOf(k === "VALID" ? "x" : k), "Content-Type": type },
            body,
          ),
          "POST refresh-schema",
        );
      }),
      { seed: SEED, numRuns: Math.ceil(RUNS / 3) },
    );
  }, 300_000);

  it("reached past the key check into validation, reads and writes (the runs above were not all refused at the door)", () => {
    for (const status of [200, 201, 400, 401, 404, 415])
      expect(seen.get(status) ?? 0, `answers with status ${status}: ${JSON.stringify([...seen])}`).toBeGreaterThan(0);
  });

  it("a 10 MB body is refused with 413 before it is read whole, and changes nothing", async () => {
    const before = await sheetState();
    const huge = JSON.stringify({ name: "x".repeat(10 * 1024 * 1024) });
    const declared = await call(
      "rows",
      "POST",
      `/api/v1/${DEMO_SPREADSHEET_ID}/Products`,
      { sheetId: DEMO_SPREADSHEET_ID, tabName: "Products" },
      { "X-API-Key": key, "Content-Type": "application/json", "Content-Length": String(huge.length) },
      huge,
    );
    expect(declared?.status).toBe(413);
    const streamed = new ReadableStream({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode("x".repeat(1024 * 1024)));
        c.close();
      },
    });
    const chunked = await call(
      "rows",
      "POST",
      `/api/v1/${DEMO_SPREADSHEET_ID}/Products`,
      { sheetId: DEMO_SPREADSHEET_ID, tabName: "Products" },
      { "X-API-Key": key, "Content-Type": "application/json" },
      streamed as unknown as BodyInit,
    );
    expect(chunked?.status).toBe(413);
    checkAnswer(chunked, "chunked 10 MB");
    expect(await sheetState()).toBe(before);
  });
});
