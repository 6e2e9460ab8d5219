import type { SheetAccess } from "@/db/schema";

/**
 * How the service reaches a sheet, in the owner's words. A sheet registered by its link may be
 * read by the service's Google account without anyone having shared it with that account, so
 * the label says who reads it, not who shared it.
 */
export function accessLabel(access: SheetAccess, grantEmail?: string | null): string {
  if (access === "oauth") return `through ${grantEmail ?? "your"}${grantEmail ? "'s" : ""} Google grant`;
  if (access === "public") return "public link, read with the service's API key";
  return "read by the service's Google account";
}
