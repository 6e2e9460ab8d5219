// The one wrapper for key-authenticated routes: X-API-Key is checked against the sheet in the
// path and the permission the route needs (401 unauthorized / 403 forbidden in the envelope).
import { findApiKeyByHash } from "@/db/queries/api-keys";
import { getSheet } from "@/db/queries/sheets";
import type { ApiKey, Sheet } from "@/db/schema";
import { hashApiKey, KEY_FORMAT } from "@/lib/keys/api-key";
import { PERMISSION_LABELS, type Permission } from "@/lib/keys/permissions";
import { ApiError } from "./errors";
import { route, type RouteContext } from "./route";

export const API_KEY_HEADER = "X-API-Key";

export interface KeyContext<P> extends RouteContext<P> {
  key: ApiKey;
  sheet: Sheet;
}

const invalid = () => new ApiError("unauthorized", "Invalid API key for this sheet.");

export function withApiKey<P extends { sheetId: string }>(
  handler: (ctx: KeyContext<P>) => Promise<Response>,
  { permission }: { permission: Permission },
) {
  return route<P>(async (ctx) => {
    const value = ctx.req.headers.get(API_KEY_HEADER)?.trim();
    if (!value) throw new ApiError("unauthorized", `Missing API key: send it in the ${API_KEY_HEADER} header.`);
    if (!KEY_FORMAT.test(value)) throw invalid();
    // Looked up by its SHA-256: the comparison never touches the key itself.
    const key = await findApiKeyByHash({ hash: hashApiKey(value) });
    if (!key || key.sheetId !== ctx.params.sheetId) throw invalid();
    if (key.revokedAt) throw new ApiError("unauthorized", "This API key has been revoked.");
    if (!key.permissions.includes(permission)) {
      throw new ApiError("forbidden", `This API key lacks the ${PERMISSION_LABELS[permission]} permission.`);
    }
    const sheet = await getSheet({ id: key.sheetId });
    if (!sheet) throw new ApiError("not_found", "This sheet is no longer registered.");
    return handler({ ...ctx, key, sheet });
  });
}
