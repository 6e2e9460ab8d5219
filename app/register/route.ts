import { ok } from "@/lib/http/envelope";
import { readJsonBody } from "@/lib/http/body";
import { ApiError } from "@/lib/errors";
import { eachWithPeekedLimits, withPeekedLimits } from "@/lib/routes/peek-limits";
import { isPageNavigation, otherMethods } from "@/lib/routes/route";
import { withSession } from "@/lib/routes/with-session";
import { registerSheet, registrationDocument } from "@/lib/sheets/registration/registration";

export const dynamic = "force-dynamic";

// POST /register - register a sheet the service reaches with its own credentials
export const POST = withPeekedLimits(
  withSession(async ({ req, user }) => {
    const body = await readJsonBody(req);
    if (!body || typeof body !== "object" || Array.isArray(body))
      throw new ApiError(
        "validation_error",
        'The body must be a JSON object: { "sheet_url": "<the sheet\'s address or id>" }.',
      );
    const sheetUrl = (body as { sheet_url?: unknown }).sheet_url;
    const reg = await registerSheet({ userId: user.id, sheetUrl });
    return ok({ data: registrationDocument(reg) }, { status: reg.created ? 201 : 200 });
  }),
);
const { GET: notAllowed, PUT, PATCH, DELETE } = eachWithPeekedLimits(otherMethods(["POST"]));
export { PUT, PATCH, DELETE };

// GET /register - a browser that opened the address lands on the dashboard, where sheets are
// registered by hand; API clients get 405 in the envelope, as for any method this route lacks.
export function GET(req: Request): Promise<Response> | Response {
  if (isPageNavigation(req)) return new Response(null, { status: 303, headers: { Location: "/dashboard" } });
  return notAllowed(req);
}
