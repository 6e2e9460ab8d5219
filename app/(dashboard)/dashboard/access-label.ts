import type { SheetAccess } from "@/db/schema";

/**
 * How the service reaches a sheet, in the owner's words. A sheet registered by its link may be
 * read by the service's Google account without anyone having shared it with that account, so
 * the label says who reads it, not who shared it.
 */
export function accessLabel(access: SheetAccess, grantEmail?: string | null, serviceAccount?: string | null): string {
  if (access === "oauth") return `with the access ${grantEmail ?? "your Google account"} gave SheetAPI in Google`;
  if (access === "public") return "anyone with the link can view it; SheetAPI reads it as anyone would";
  return serviceAccount
    ? `reached with SheetAPI's own Google account ${serviceAccount}`
    : "reached with SheetAPI's own Google account";
}
