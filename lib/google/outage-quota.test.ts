// A Google outage is not a used-up quota: failing calls and their retries fill the quota guard's
// windows as well as good ones, and the refusal that follows names Google being unavailable; the
// same refusal after calls that went through still says the quota is used up. Code and
// Retry-After are the same either way (SPEC: service_unavailable).
import { describe, expect, it } from "vitest";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { demoSheetSuite } from "@/testing/demo-sheet-suite";

const PER_IDENTITY = 4;
const suite = demoSheetSuite("outage-quota@example.com", {
  env: {
    GOOGLE_QUOTA_PER_IDENTITY_MINUTE: String(PER_IDENTITY),
    GOOGLE_QUOTA_WAIT_MS: "0",
    GOOGLE_QUOTA_ACCOUNT_SHARE: "1",
    GOOGLE_RETRY_BUDGET_MS: "1500",
    CHANGE_CHECK_INTERVAL_MS: "0",
  },
});

/** Reads until the guard refuses one (no copy kept, so each goes to Google and none is served stale). */
async function untilRefused() {
  const { invalidateSheetData } = await import("@/lib/sheets/read/tab-cache");
  for (let i = 0; i < 3 * PER_IDENTITY; i++) {
    await invalidateSheetData(DEMO_SPREADSHEET_ID);
    const res = await suite.api.list("Products", `fresh=true&_n=${i}`);
    if (res.status === 503 && /retry in \d+ s/.test(String(res.body.message))) return res;
  }
  throw new Error("the quota guard never refused");
}

describe("the quota guard's refusal", () => {
  it("says the quota is used up when the calls that filled it went through", async () => {
    setLimitStore(memoryStore());
    const res = await untilRefused();
    expect(res.body).toMatchObject({
      success: false,
      error: "service_unavailable",
      message: expect.stringMatching(/quota .* is used up/),
    });
  });

  it("says Google is unavailable, not that the quota is used up, when Google's failures filled it", async () => {
    setLimitStore(memoryStore());
    suite.svc.google.faults.add({ route: "values.get", status: 503, count: -1 });
    suite.svc.google.faults.add({ route: "values.batchGet", status: 503, count: -1 });
    const res = await untilRefused();
    expect(res.body).toMatchObject({
      success: false,
      error: "service_unavailable",
      message: expect.stringMatching(/^Google Sheets is unavailable at the moment/),
    });
    expect(res.body.message).not.toMatch(/used up/);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
