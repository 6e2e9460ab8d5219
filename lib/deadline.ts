// Waiting for work only so long: past the bound the caller goes on without it, and the work,
// still running, is not cancelled (whatever it settles serves the callers after it).

export const TOO_SLOW: unique symbol = Symbol("too slow");

/** `work`'s result, or TOO_SLOW once `ms` have passed first; `work` failing in time rejects. */
export function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T | typeof TOO_SLOW> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof TOO_SLOW>((resolve) => (timer = setTimeout(() => resolve(TOO_SLOW), ms)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
