// POST /f/{formKey}: a plain HTML form appends one row to its key's tab. A browser (Accept:
// text/html) is sent on with a 303 (or shown a readable error page); a script gets the envelope.
// Each submission written counts as one request of the owner's plan and of the visitor's limit;
// a refused one (origin, spam, fields, limits) writes nothing and is counted on the key (DECISIONS 24).
import { clientAddress, noteInvalidKey, refuseFloodingAddress } from "@/lib/abuse/invalid-keys";
import { hashApiKey, KEY_FORMAT, KEY_PREFIXES } from "@/lib/api-key";
import { ApiError } from "@/lib/errors";
import { claimSubmission } from "@/lib/forms/duplicates";
import { appendFormRow } from "@/lib/forms/form-append";
import { readFormFields, type FormFields } from "@/lib/forms/form-body";
import { backLink, checkFormOrigin, listedPage, redirectTarget } from "@/lib/forms/form-origin";
import { errorPage, thankYouPage } from "@/lib/forms/form-pages";
import { reservedFields, submissionRow } from "@/lib/forms/form-row";
import { handleApiError, ok } from "@/lib/http/envelope";
import { countFormSubmission } from "@/lib/keys/form-counts";
import type { FormScope, KeyRecord } from "@/lib/keys/key-record";
import { rateLimitError, refundRequest, type LimitDecision } from "@/lib/limits/limiter";
import { currentAccess } from "@/lib/sheets/access/access-check";
import { requireRegistrantCanOpen } from "@/lib/sheets/access/access-lapse";
import { findWriteTab } from "@/lib/sheets/read/rows-api";
import { refuseFormulas } from "@/lib/sheets/write/formula-guard";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import { recordUsage } from "@/lib/usage/metering";
import { openTally } from "@/lib/usage/request-tally";
import { admitRequest, authenticateKey, invalidKey } from "./admit";
import { route } from "./route";

type Params = { formKey: string };

/** A browser's own form post asks for a page; a script asks for JSON (or nothing). */
const wantsPage = (req: Request) => /\btext\/html\b/i.test(req.headers.get("accept") ?? "");

/** The live form key of the path; 401 for anything else, the address throttled as for bad keys. */
async function formKeyOf(req: Request, value: string): Promise<KeyRecord & { form: FormScope }> {
  try {
    if (!value.startsWith(KEY_PREFIXES.form) || !KEY_FORMAT.test(value)) throw invalidKey(false);
    const key = await authenticateKey(hashApiKey(value));
    if (!key.form) throw invalidKey(false);
    return key as KeyRecord & { form: FormScope };
  } catch (err) {
    if (err instanceof ApiError && err.code === "unauthorized") {
      refuseFloodingAddress(req);
      throw new ApiError(
        "unauthorized",
        "This form's address is not valid (its key is unknown, revoked or mistyped): the site's owner needs to check it.",
        {},
        noteInvalidKey(req),
      );
    }
    throw err;
  }
}

/** Where the browser goes after an accepted submission: the owner's address, or the hosted page. */
function accepted(req: Request, value: string, scope: FormScope, target: string | undefined): Response {
  if (wantsPage(req)) {
    const back = backLink(scope, req.headers);
    const hosted = new URL(`/f/${value}`, req.url);
    if (back) hosted.searchParams.set("back", back);
    return new Response(null, {
      status: 303,
      headers: { Location: target ?? hosted.pathname + hosted.search, "Cache-Control": "no-store" },
    });
  }
  // No rate-limit headers: the honeypot's and a double click's answers must look the same.
  return ok({ data: { submitted: true, ...(target ? { redirect: target } : {}) } }, { status: 201 });
}

async function submit(req: Request, value: string, key: KeyRecord & { form: FormScope }): Promise<Response> {
  const scope = key.form;
  try {
    checkFormOrigin(scope, req.headers);
  } catch (err) {
    // As for a browser key from an unlisted origin: anyone has the key, so the address is throttled as one sending bad keys.
    refuseFloodingAddress(req);
    throw err instanceof ApiError ? new ApiError(err.code, err.message, err.extra, noteInvalidKey(req)) : err;
  }
  const fields = await readFormFields(req);
  const { spam, redirect } = reservedFields(fields);
  const target = redirectTarget(scope, redirect);
  // The honeypot: an accepted-looking answer, so a bot learns nothing; counted as refused.
  if (spam) return refusedButAccepted(key, accepted(req, value, scope, target));
  const visitor = clientAddress(req);
  const claim = await claimSubmission(key.id, visitor, fields);
  // A second click: the first one writes the row, this one answers as it will.
  if (!claim.first) return accepted(req, value, scope, target);
  let decision: LimitDecision | undefined;
  try {
    const admitted = await admitRequest({
      hash: key.hash,
      sheetId: key.sheetId,
      tab: scope.tab,
      method: "POST",
      address: visitor,
    });
    decision = admitted.decision;
    if (decision && !decision.allowed) {
      await recordUsage({ userId: key.userId, sheetId: key.sheetId, keyId: key.id, status: 429, storeAnswered: true });
      throw rateLimitError(decision);
    }
    openTally();
    const written = await write(key, admitted.sheet, fields);
    await recordUsage({
      userId: key.userId,
      sheetId: key.sheetId,
      keyId: key.id,
      status: 201,
      storeAnswered: decision !== undefined,
    });
    countFormSubmission(key.id, written);
    return accepted(req, value, scope, target);
  } catch (err) {
    await claim.release();
    // Not written: the unit is the owner's again (a 429 never took one).
    if (decision?.allowed) await refundRequest(decision).catch(() => undefined);
    throw err;
  }
}

async function write(
  key: KeyRecord & { form: FormScope },
  sheet: SheetRecord | null,
  fields: FormFields,
): Promise<true> {
  const scope = key.form;
  if (!sheet) throw new ApiError("not_found", "This form's sheet is no longer registered.");
  const current = await currentAccess(sheet);
  requireRegistrantCanOpen(current);
  const tab = await findWriteTab(current, scope.tab);
  const row = submissionRow(fields, scope, tab.columns);
  refuseFormulas(key, current, row);
  await appendFormRow(current, tab, row);
  return true;
}

function refusedButAccepted(key: KeyRecord, res: Response): Response {
  countFormSubmission(key.id, false);
  return res;
}

export const submitForm = route<Params>(async ({ req, params, requestId, annotate }) => {
  const value = params.formKey;
  annotate({ key_prefix: value.slice(0, 8) });
  let key: (KeyRecord & { form: FormScope }) | undefined;
  try {
    key = await formKeyOf(req, value);
    annotate({ key_id: key.id, account: key.userId, sheet: key.sheetId });
    return await submit(req, value, key);
  } catch (err) {
    if (key) countFormSubmission(key.id, false);
    const res = handleApiError(err, requestId, req.signal);
    if (!wantsPage(req)) return res;
    const message = err instanceof ApiError ? err.message : "Something went wrong on our side. Try again in a moment.";
    const page = errorPage({ status: res.status, message, back: key ? backLink(key.form, req.headers) : undefined });
    for (const name of ["retry-after", "x-request-id"])
      if (res.headers.has(name)) page.headers.set(name, res.headers.get(name)!);
    return page;
  }
});

/** GET /f/{formKey}: the hosted thank-you page, the owner's message and a link back to a listed site's page. */
export const formThanks = route<Params>(async ({ req, url, params }) => {
  try {
    const key = await formKeyOf(req, params.formKey);
    return thankYouPage({ message: key.form.message, back: listedPage(key.form, url.searchParams.get("back")) });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return errorPage({ status: err.status, message: err.message });
  }
});
