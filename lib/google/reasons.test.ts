// A 403 from Google is read by its reason: rate limits are retried like 429, a disabled API or a
// missing scope is reported as the service's configuration problem, and "no access" only when it
// is that. A service account that cannot sign in (JWT-bearer exchange refused) is the service's
// fault too: 503 with server-side wording, /health down, never "the owner must re-authorize".
import { describe, expect, it } from "vitest";
import { getSheet } from "@/db/queries/sheets";
import { DEMO_SPREADSHEET_ID, EMULATOR_SERVICE_ACCOUNT, NO_ACCESS_SPREADSHEET_ID } from "@/emulators/google/seed";
import { demoSheetSuite } from "@/testing/demo-sheet-suite";

// Access tokens live one second, so the service account signs in again on every call.
const suite = demoSheetSuite("reasons@example.com", { env: { GOOGLE_RETRY_BUDGET_MS: "3000" } }, (svc) =>
  svc.admin("/token-ttl", { seconds: 1 }).then(() => undefined),
);

describe("403 reasons", () => {
  // Drive words its rate limits as a 403 whose only reason is in errors[] (Sheets answers 429
  // RESOURCE_EXHAUSTED, faults.test.ts): proving access through Drive reads them as such.
  it.each(["userRateLimitExceeded", "rateLimitExceeded"] as const)(
    "reads Drive's 403 %s as rate limiting, not as lost access",
    async (reason) => {
      suite.svc.google.faults.add({ route: "files.get", reason, count: -1 });
      const { proveAccess } = await import("@/lib/sheets/access/proof");
      const refused = await proveAccess(suite.userId, DEMO_SPREADSHEET_ID).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: "service_unavailable", message: expect.stringMatching(/rate limiting/) });
      expect(suite.svc.google.calls.get("files.get")).toBe(1);
      suite.svc.google.faults.clear();
      expect(await proveAccess(suite.userId, DEMO_SPREADSHEET_ID)).toMatchObject({ level: "edit" });
    },
  );

  it.each([
    ["SERVICE_DISABLED", /not enabled in the service's Google Cloud project/],
    ["ACCESS_TOKEN_SCOPE_INSUFFICIENT", /lack the permission \(OAuth scope\)/],
  ] as const)("reports %s plainly as the service's configuration, without retrying", async (reason, message) => {
    suite.svc.google.faults.add({ route: "values.get", reason, count: -1 });
    const res = await suite.api.list("Products");
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, error: "bad_gateway" });
    expect(res.body.message).toMatch(message);
    expect(res.body.message).not.toMatch(/no longer has access|re-authorize/);
    expect(suite.svc.google.calls.get("values.get")).toBe(1);
  });

  it("says 'no access' when Google means it", async () => {
    const { translateGoogleError, isNoAccess } = await import("@/lib/sheets/sheet-access");
    const { createGoogleClients } = await import("@/lib/google/clients");
    const { config } = await import("@/lib/env");
    const { sheets, drive } = createGoogleClients(config().google, { kind: "serviceAccount" });
    const denied = await sheets.spreadsheets.get({ spreadsheetId: NO_ACCESS_SPREADSHEET_ID }).catch((e: unknown) => e);
    expect(isNoAccess(denied)).toBe(true);
    expect(translateGoogleError(denied)).toMatchObject({ code: "forbidden" });
    const notFound = await drive.files
      .get({ fileId: NO_ACCESS_SPREADSHEET_ID, supportsAllDrives: true })
      .catch((e: unknown) => e);
    expect(isNoAccess(notFound)).toBe(true);
  });
});

describe("the service account's own sign-in", () => {
  it("answers 503 as the service's fault, shows it in /health, and flags nothing for the owner", async () => {
    const { GET } = await import("@/app/health/route");
    // The key is deleted in "IAM": the next exchange is refused (invalid_grant).
    await suite.svc.admin("/service-account-keys", { email: EMULATOR_SERVICE_ACCOUNT }, "DELETE");
    await new Promise((r) => setTimeout(r, 1100));

    const res = await suite.api.list("Products");
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ success: false, error: "service_unavailable" });
    expect(res.body.message).toMatch(/could not sign in to Google with its service account/);
    expect(res.body.message).not.toMatch(/re-authorize/);
    expect((await getSheet({ id: DEMO_SPREADSHEET_ID }))!.needsReauth).toBe(false);

    const health = await (await GET(new Request("http://x/health"))).json();
    expect(health.checks.sheets_backend.status).toBe("down");
    expect(health.checks.sheets_backend.detail).toMatch(/service account cannot sign in.*invalid_grant/);

    // The key is back (a new one uploaded): the next call signs in and /health recovers.
    const { uploadServiceAccountKey } = await import("@/testing/google");
    const { config } = await import("@/lib/env");
    await uploadServiceAccountKey(suite.svc.google.url, config().google.serviceAccount);
    expect((await suite.api.list("Products")).status).toBe(200);
    const after = await (await GET(new Request("http://x/health"))).json();
    expect(after.checks.sheets_backend.status).not.toBe("down");
    // Once the failed calls are out of the last ten, it is "ok" again.
    for (let i = 0; i < 10; i++) expect((await suite.api.list("Products", "fresh=true")).status).toBe(200);
    const recovered = await (await GET(new Request("http://x/health"))).json();
    expect(recovered.checks.sheets_backend.status).toBe("ok");
  });
});
