// The four permissions of the spec, as stored on a key, and the 403 for a key without one.
import { ApiError } from "@/lib/errors";

export const PERMISSIONS = ["read", "write", "schema", "analytics"] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const PERMISSION_LABELS: Record<Permission, string> = {
  read: "Read",
  write: "Write",
  schema: "Schema",
  analytics: "Analytics",
};

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/** 403 unless the key holds `permission`; `why`, when the route's own permission is not the only one the request needs. */
export function requirePermission(
  key: { permissions: readonly Permission[]; browser?: unknown },
  permission: Permission | undefined,
  why = "",
): void {
  if (!permission || key.permissions.includes(permission)) return;
  if (key.browser)
    throw new ApiError(
      "forbidden",
      `Browser (publishable) keys only read; this request needs the ${PERMISSION_LABELS[permission]} permission: use a secret key, on a server.`,
    );
  throw new ApiError(
    "forbidden",
    `This API key lacks the ${PERMISSION_LABELS[permission]} permission.${why ? ` ${why}` : ""}`,
  );
}
