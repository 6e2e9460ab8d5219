import { ok } from "@/lib/http/envelope";
import { keyRouteMethods, withAccountKey } from "@/lib/routes/with-api-key";
import { accountLimits } from "@/lib/limits/accounts";
import { limitHeaders } from "@/lib/limits/limiter";
import { currentWindows, usageReport } from "@/lib/usage/usage-report";

export const dynamic = "force-dynamic";

// GET /billing/usage - the account's use of its plan in the current billing period (Analytics)
export const GET = withAccountKey(
  async ({ key }) => {
    const account = await accountLimits(key.userId);
    const now = Date.now();
    const windows = await currentWindows(account, now);
    const data = await usageReport(account, now, windows);
    return ok({ data }, { headers: windows ? limitHeaders(windows, now) : {} });
  },
  { permission: "analytics" },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = keyRouteMethods(["GET"], { account: true });
