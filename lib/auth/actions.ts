// The one wrapper for dashboard server actions: signs in, validates with zod, and returns
// `{ error }` instead of throwing, so forms can show the message.
import type { z } from "zod";
import { ApiError } from "@/lib/http/errors";
import { currentUser, type SessionUser } from "./session";
import { errorFields, log } from "@/lib/log";

/** `reason`: a machine-readable cause some forms act on (such as "not_picked"). */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: string; reason?: string };

export function sessionAction<S extends z.ZodType, T>(schema: S, fn: (input: z.infer<S>, user: SessionUser) => Promise<T>) {
  return async (input: unknown): Promise<ActionResult<T>> => {
    const user = await currentUser();
    if (!user) return { ok: false, error: "Your session has ended. Sign in again." };
    const parsed = schema.safeParse(input);
    if (!parsed.success) return { ok: false, error: parsed.error.issues.map((i) => i.message).join("; ") };
    try {
      return { ok: true, data: await fn(parsed.data, user) };
    } catch (err) {
      if (err instanceof ApiError) {
        const reason = typeof err.extra.reason === "string" ? err.extra.reason : undefined;
        return { ok: false, error: err.message, ...(reason ? { reason } : {}) };
      }
      log.error({ ...errorFields(err), stack: (err as Error)?.stack }, "dashboard action: unhandled error");
      return { ok: false, error: "Something went wrong on our side. Try again." };
    }
  };
}
