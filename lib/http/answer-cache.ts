// Answers serialized once and kept beside the cached copy they were made from, keyed by that copy
// and the query, so a repeated read neither queries nor serializes again and a kept answer never
// outlives its copy. Bounded in characters, least recently used first (lib/http/README.md).
import { perProcess } from "@/lib/per-process";

export interface Answer {
  /** The body as sent. */
  text: string;
  etag: string;
}

/** Characters kept across every answer (about twice as many bytes). */
const BUDGET = 8_000_000;
/** Larger answers are made each time: one would push out many small ones. */
const MAX_ANSWER = BUDGET / 16;

interface State {
  ids: WeakMap<object, number>;
  next: number;
  answers: Map<string, Answer>;
  size: number;
}

const state = perProcess<State>("answer-cache", () => ({ ids: new WeakMap(), next: 0, answers: new Map(), size: 0 }));

function idOf(source: object): number {
  let id = state.ids.get(source);
  if (id === undefined) state.ids.set(source, (id = ++state.next));
  return id;
}

/**
 * The answer `make` gives for `query` of `source`, made at most once while it stays in the
 * budget. `make` must depend on nothing else; what it throws is thrown to each caller.
 */
export async function cachedAnswer(
  source: object,
  query: string,
  make: () => Answer | Promise<Answer>,
): Promise<Answer> {
  const key = `${idOf(source)}\u0000${query}`;
  const hit = state.answers.get(key);
  if (hit) {
    // Most recently used last.
    state.answers.delete(key);
    state.answers.set(key, hit);
    return hit;
  }
  const answer = await make();
  if (answer.text.length > MAX_ANSWER) return answer;
  state.answers.set(key, answer);
  state.size += key.length + answer.text.length;
  for (const [oldest, old] of state.answers) {
    if (state.size <= BUDGET) break;
    state.answers.delete(oldest);
    state.size -= oldest.length + old.text.length;
  }
  return answer;
}
