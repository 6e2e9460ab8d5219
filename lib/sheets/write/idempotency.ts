// Idempotent creates (as Stripe does): POST with an Idempotency-Key, claimed in the limit store so
// it holds across instances; a retry with the same key and body gets the first answer again and
// writes nothing. What is kept, for how long, and the 504 case: README.md ("Idempotency-Key").
import { createHash } from "node:crypto";
import { getLimitStore, writesPaused } from "@/lib/store/store";
import { ApiError, OutcomeUnknown } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
const KEEP_SECONDS = 24 * 3600;
/** A claim outlives any request (Google calls are bounded), and frees the key if an instance dies. */
const CLAIM_SECONDS = 60;
const WAIT_MS = 30_000;

interface Pending {
  state: "pending";
  fingerprint: string;
}
interface Unknown {
  state: "unknown";
  fingerprint: string;
  writeId: number;
  /** The answer the first request would have had, had its write been confirmed. */
  answer: unknown;
}
interface Done {
  state: "done";
  fingerprint: string;
  status: number;
  body: string;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function replay(done: Done): Response {
  return new Response(done.body, {
    status: done.status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...REPLAYED },
  });
}

/** Marks an answer that is the first request's, not this one's (a replay, or an earlier write found to have landed). */
export const REPLAYED = { "Idempotent-Replayed": "true" } as const;

/** What `create` learns of an earlier attempt with the same key whose write had an unknown outcome. */
export interface EarlierAttempt {
  key: string;
  earlier?: { writeId: number; answer: unknown };
}

/** Runs `create` at most once per account and Idempotency-Key; without the header it just runs. */
export async function idempotent(
  req: Request,
  accountId: string,
  request: unknown,
  create: (attempt?: EarlierAttempt) => Promise<Response>,
): Promise<Response> {
  const key = req.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return create();
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new ApiError(
      "validation_error",
      `${IDEMPOTENCY_HEADER} must be 1 to 255 visible ASCII characters (a UUID is a good choice).`,
    );
  }
  const store = getLimitStore();
  const recordKey = `sheetapi:idem:${accountId}:${sha256(key)}`;
  const fingerprint = sha256(`${new URL(req.url).pathname}\u0000${JSON.stringify(request)}`);
  const deadline = Date.now() + WAIT_MS;
  let earlier: Unknown | undefined;
  for (let attempt = 0; ; attempt++) {
    let claimed: boolean;
    let record: Pending | Done | Unknown | null;
    try {
      claimed = await store.putIfAbsent(recordKey, { state: "pending", fingerprint } satisfies Pending, CLAIM_SECONDS);
      record = claimed ? null : ((await store.mget<Pending | Done | Unknown>([recordKey]))[0] ?? null);
    } catch {
      throw writesPaused();
    }
    if (claimed) break;
    if (record && record.fingerprint !== fingerprint) {
      throw new ApiError(
        "conflict",
        `This ${IDEMPOTENCY_HEADER} was used for a different request in the last 24 hours. Use a new key for a new request.`,
      );
    }
    if (record?.state === "done") return replay(record);
    if (record?.state === "unknown") {
      // Taken over by this retry (a concurrent retry then waits for it, as for a pending one).
      earlier = record;
      try {
        await store.put(recordKey, { state: "pending", fingerprint } satisfies Pending, CLAIM_SECONDS);
      } catch {
        throw writesPaused();
      }
      break;
    }
    if (Date.now() >= deadline) {
      throw new ApiError(
        "conflict",
        `A request with this ${IDEMPOTENCY_HEADER} is still being processed; retry shortly.`,
        {},
        { "Retry-After": "1" },
      );
    }
    await sleep(Math.min(250, 20 + attempt * 20));
  }
  let res: Response;
  try {
    res = await create({ key, earlier: earlier && { writeId: earlier.writeId, answer: earlier.answer } });
  } catch (err) {
    // A write that may still land keeps its id under the key; otherwise the key is free again.
    const unknown =
      err instanceof OutcomeUnknown
        ? { writeId: err.writeId, answer: err.answer }
        : earlier && { writeId: earlier.writeId, answer: earlier.answer };
    if (unknown)
      await store
        .put(recordKey, { state: "unknown", fingerprint, ...unknown } satisfies Unknown, KEEP_SECONDS)
        .catch(() => undefined);
    else await store.del(recordKey).catch(() => undefined);
    throw err;
  }
  if (res.status >= 500) {
    await store.del(recordKey).catch(() => undefined);
    return res;
  }
  const body = await res.clone().text();
  await store
    .put(recordKey, { state: "done", fingerprint, status: res.status, body } satisfies Done, KEEP_SECONDS)
    .catch((err: unknown) => {
      log.warn({ ...errorFields(err) }, "idempotency: could not keep the answer for a key");
    });
  return res;
}
