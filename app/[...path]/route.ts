import { unknownRoute } from "@/lib/http/route";

// Any path no other route serves: 404 in the spec's envelope, never an HTML page.
export { unknownRoute as GET, unknownRoute as HEAD, unknownRoute as POST, unknownRoute as PUT, unknownRoute as PATCH, unknownRoute as DELETE, unknownRoute as OPTIONS };
