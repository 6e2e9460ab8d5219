// The one wrapper for dashboard server actions: signs in, validates with zod, and returns
// `{ error }` instead of throwing, so forms can show the message.
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import type { z } from "zod";
import { ApiError } from "@/lib/errors";
import { newRequestId, requestIdOf } from "@/lib/http/request-id";
import { inRequest, type RequestContext } from "@/lib/observability/request-context";
import { RETURN_TO_HEADER } from "./return-to";
import { currentUser, type SessionUser } from "./session";
import { errorFields, log } from "@/lib/log";

/** `reason`: a machine-readable cause some forms act on (such as "not_picked"). */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: string; reason?: string };

/**
 * What an action's log lines name, as a route's do (lib/routes/route.ts): the id proxy.ts gave the
 * page request that carries it, the dashboard page it was sent from (its sheet id as
 * `{sheetId}`), and the sheet it acts on.
 */
async function actionContext(input: unknown): Promise<RequestContext> {
  // Outside a request (a script calling an action) there are no headers: a new id then.
  const h = await Promise.resolve()
    .then(() => headers())
    .catch(() => undefined);
  const given = input && typeof input === "object" ? (input as { sheetId?: unknown }).sheetId : undefined;
  const sheet = typeof given === "string" && given ? given : undefined;
  const page = h?.get(RETURN_TO_HEADER)?.split("?")[0] ?? "";
  const route = `action ${sheet ? page.replace(`/${sheet}`, "/{sheetId}") : page}`.trim();
  return { req_id: h ? requestIdOf(h) : newRequestId(), route, ...(sheet ? { sheet } : {}) };
}

const kindOf = (input: unknown) =>
  input === null
    ? "null"
    : Array.isArray(input)
      ? "array"
      : typeof input === "object"
        ? (input.constructor?.name ?? "object")
        : typeof input;

/**
 * Input no page of this site sends (a forged or broken request): one warning line and a 404
 * answer (Next.js answers an action's `notFound()` with its status), never a 500 with a stack.
 */
export function refuseMalformedInput(action: string, input: unknown): never {
  log.warn({ action, input: kindOf(input) }, "dashboard action: malformed input refused");
  notFound();
}

/**
 * The one wrapper for form actions (`<form action>`, `useActionState`): the form's fields reach
 * `fn`, anything else is refused as above before `fn` runs.
 */
export function formAction<S, R>(name: string, fn: (before: S, form: FormData) => Promise<R>) {
  return async (before: S, form: unknown): Promise<R> => {
    if (!(form instanceof FormData)) refuseMalformedInput(name, form);
    return fn(before, form);
  };
}

export function sessionAction<S extends z.ZodType, T>(
  schema: S,
  fn: (input: z.infer<S>, user: SessionUser) => Promise<T>,
) {
  return async (input: unknown): Promise<ActionResult<T>> =>
    inRequest(await actionContext(input), () => runAction(schema, fn, input));
}

async function runAction<S extends z.ZodType, T>(
  schema: S,
  fn: (input: z.infer<S>, user: SessionUser) => Promise<T>,
  input: unknown,
): Promise<ActionResult<T>> {
  // Every action's input is an object of fields: anything else is not from its page.
  if (!input || typeof input !== "object" || Array.isArray(input)) refuseMalformedInput("session action", input);
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
}
