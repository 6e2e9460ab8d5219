import { ok } from "@/lib/http/envelope";
import { eachWithPeekedLimits, withPeekedLimits } from "@/lib/routes/peek-limits";
import { otherMethods, route } from "@/lib/routes/route";
import { serviceInfo } from "@/lib/service-info";

export const dynamic = "force-dynamic";

// GET /api - what the service is and where its routes are
export const GET = withPeekedLimits(route(() => ok(serviceInfo())));
export const { POST, PUT, PATCH, DELETE } = eachWithPeekedLimits(otherMethods(["GET"]));
// OPTIONS /api - what it answers (Next.js' own would carry no rate-limit headers)
export const OPTIONS = withPeekedLimits(
  route(() => new Response(null, { status: 204, headers: { Allow: "GET, HEAD, OPTIONS" } })),
);
