// A write under an Idempotency-Key (lib/sheets/write/idempotency.ts) whose earlier attempt had an unknown
// outcome settles that attempt first (write-guard.ts): when it landed after all, nothing is
// written again and the request gets the earlier attempt's answer, marked as replayed. The write
// routes go through here, so each says only what it writes and how it answers.
import { idempotent, REPLAYED, type EarlierAttempt } from "@/lib/sheets/write/idempotency";
import type { EarlierLanded, ReplayOptions } from "./write-request";

export type { ReplayOptions };

/** A write's result as the answer to give: its own, or the earlier attempt's when that one landed. */
export type AnswerOf = <T>(result: T | EarlierLanded) => T;

/**
 * Runs `write` at most once per account and Idempotency-Key: `write` hands `options` to the write,
 * passes its result through `answerOf` and answers with that; an answer that is the earlier
 * attempt's goes out with the Idempotent-Replayed header.
 */
export function idempotentWrite(
  req: Request,
  accountId: string,
  request: unknown,
  write: (options: ReplayOptions, answerOf: AnswerOf) => Promise<Response>,
): Promise<Response> {
  return idempotent(req, accountId, request, async (attempt) => {
    let replayed = false;
    const answerOf = <T>(result: T | EarlierLanded): T => {
      if (result !== "earlier-landed") return result as T;
      replayed = true;
      return attempt!.earlier!.answer as T;
    };
    const res = await write(replayOptions(attempt), answerOf);
    if (replayed) for (const [name, value] of Object.entries(REPLAYED)) res.headers.set(name, value);
    return res;
  });
}

function replayOptions(attempt: EarlierAttempt | undefined): ReplayOptions {
  return {
    idempotencyKey: attempt?.key,
    earlierWrite: attempt?.earlier?.writeId,
    earlierAnswer: attempt?.earlier?.answer,
  };
}
