import { openApiDocument } from "@/lib/docs/openapi";
import { loadSheetDocs } from "@/lib/docs/sheet-docs";
import { applyCors } from "@/lib/http/cors";
import { ApiError } from "@/lib/errors";
import { eachWithPeekedLimits, withPeekedLimits } from "@/lib/routes/peek-limits";
import { otherMethods, route } from "@/lib/routes/route";

export const dynamic = "force-dynamic";

// GET /docs/{sheetId}/openapi.json - the sheet's API as OpenAPI 3.1, from the live schema.
// The document is served as it is, without the envelope's `success`: OpenAPI allows no other
// top-level fields, and tools read it directly. Errors still use the envelope.
export const GET = withPeekedLimits(
  route<{ sheetId: string }>(async ({ params }) => {
    const docs = await loadSheetDocs(params.sheetId);
    if (!docs) throw new ApiError("not_found", `No sheet ${params.sheetId} is registered.`);
    const headers = new Headers({ "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-cache" });
    applyCors(headers);
    return new Response(JSON.stringify(openApiDocument(docs), null, 2), { status: 200, headers });
  }),
);

export const { POST, PUT, PATCH, DELETE } = eachWithPeekedLimits(otherMethods(["GET"]));
