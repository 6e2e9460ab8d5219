// The four permissions of the spec, as stored on a key.
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
