import { corsPreflight } from "@/lib/http/cors";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/route";
import { withAccountKey } from "@/lib/http/with-api-key";
import { accountLimits } from "@/lib/limits/accounts";
import { limitHeaders } from "@/lib/limits/limiter";
import { currentWindows, usageReport } from "@/lib/limits/usage-report";

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

export const OPTIONS = corsPreflight;
export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET", "OPTIONS"]);
