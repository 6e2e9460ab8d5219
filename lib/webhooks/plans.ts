// Webhook endpoints per sheet, by plan. Deliveries count toward nothing on the plan: only the
// number of endpoints differs.
import { isPlanId, type PlanId } from "@/lib/limits/plans";

export const WEBHOOK_ENDPOINTS_PER_SHEET: Record<PlanId, number> = { free_trial: 1, starter: 3, professional: 10, business: 25 };

export function planLimits(plan: string): { endpointsPerSheet: number } {
  return { endpointsPerSheet: isPlanId(plan) ? WEBHOOK_ENDPOINTS_PER_SHEET[plan] : WEBHOOK_ENDPOINTS_PER_SHEET.free_trial };
}
