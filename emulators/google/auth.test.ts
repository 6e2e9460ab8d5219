// Authentication as Google does it, through the official clients: the service-account JWT-bearer
// grant (signature, aud, iat/exp, scope), self-signed JWTs refused as bearer tokens, per-method
// scopes, Drive's "File not found", shared drives, 403 reasons, and the refresh-token rules.
import { createSign } from "node:crypto";
import { drive, type drive_v3 } from "@googleapis/drive";
import { sheets } from "@googleapis/sheets";
import { JWT, OAuth2Client } from "google-auth-library";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  DEMO_SPREADSHEET_ID,
  EMULATOR_API_KEY,
  EMULATOR_SERVICE_ACCOUNT,
  NO_ACCESS_SPREADSHEET_ID,
  SHARED_DRIVE_SPREADSHEET_ID,
} from "./seed";
import { startGoogleEmulator, type GoogleEmulator } from "./server";
import { allowConsent, newServiceAccount, serviceAccountClient } from "./test-support";
import { GOOGLE_TOKEN_URI, JWT_BEARER } from "./tokens";
import { MAX_REFRESH_TOKENS } from "./oauth";

const AUTH = "https://www.googleapis.com/auth/";
// Google's error bodies, loosely: tests read whichever fields they check.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;
const account = newServiceAccount(EMULATOR_SERVICE_ACCOUNT);
let emulator: GoogleEmulator;

beforeAll(async () => {
  emulator = await startGoogleEmulator({ serviceAccountKeys: [account] });
});
afterAll(() => emulator.stop());
beforeEach(() => {
  emulator.store.reset();
  emulator.faults.clear();
});

const clientsWith = (scopes: string[], who = account) => {
  const auth = serviceAccountClient(
    emulator.url,
    who,
    scopes.map((s) => AUTH + s),
  );
  const options = { auth, rootUrl: `${emulator.url}/`, retry: false };
  return { auth, sheets: sheets({ version: "v4", ...options }), drive: drive({ version: "v3", ...options }) };
};

async function failure(promise: Promise<unknown>): Promise<{ status: number; data: Body }> {
  try {
    await promise;
  } catch (err) {
    const e = err as { status?: number; response?: { status: number; data: Body } };
    return { status: e.response?.status ?? e.status ?? 0, data: e.response?.data ?? {} };
  }
  throw new Error("expected the call to fail");
}

function assertion(claims: Record<string, unknown>, key = account.privateKey): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const unsigned = `${part({ alg: "RS256", typ: "JWT" })}.${part(claims)}`;
  return `${unsigned}.${createSign("RSA-SHA256").update(unsigned).sign(key).toString("base64url")}`;
}

async function exchange(claims: Record<string, unknown>, key?: string) {
  const res = await fetch(`${emulator.url}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: JWT_BEARER, assertion: assertion(claims, key) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("service accounts: the JWT-bearer grant", () => {
  it("exchanges a signed assertion for an access token that the JWT client caches", async () => {
    const c = clientsWith(["spreadsheets"]);
    emulator.calls.clear();
    const { data } = await c.sheets.spreadsheets.values.get({
      spreadsheetId: DEMO_SPREADSHEET_ID,
      range: "Products!A1:B1",
    });
    expect(data.values).toEqual([["id", "name"]]);
    await c.sheets.spreadsheets.values.get({ spreadsheetId: DEMO_SPREADSHEET_ID, range: "Products!A2:B2" });
    expect(emulator.calls.get("oauth.token")).toBe(1);
    const token = (await c.auth.getAccessToken()).token!;
    expect(token).toMatch(/^ya29\./);
  });

  it("refuses an assertion signed with a key Google does not hold, or for an unknown account", async () => {
    const stranger = newServiceAccount(EMULATOR_SERVICE_ACCOUNT);
    const wrongKey = await failure(clientsWith(["spreadsheets"], stranger).auth.getAccessToken());
    expect(wrongKey).toMatchObject({
      status: 400,
      data: { error: "invalid_grant", error_description: "Invalid JWT Signature." },
    });
    const unknown = await failure(
      clientsWith(["spreadsheets"], { ...account, email: "ghost@x.iam.gserviceaccount.com" }).auth.getAccessToken(),
    );
    expect(unknown.data).toMatchObject({ error: "invalid_grant" });
  });

  it("checks aud, iat/exp (clock skew, lifetime) and scope", async () => {
    const now = Math.floor(Date.now() / 1000);
    const base = { iss: account.email, scope: `${AUTH}spreadsheets`, aud: GOOGLE_TOKEN_URI, iat: now, exp: now + 3600 };
    expect((await exchange(base)).status).toBe(200);
    expect(await exchange({ ...base, aud: "https://example.com/token" })).toMatchObject({
      status: 400,
      body: { error: "invalid_grant" },
    });
    const skewed = await exchange({ ...base, iat: now + 3600, exp: now + 7200 });
    expect(skewed).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(String(skewed.body.error_description)).toContain("Check your iat and exp values");
    expect((await exchange({ ...base, iat: now - 7200, exp: now - 3600 })).body.error).toBe("invalid_grant");
    expect((await exchange({ ...base, exp: now + 7200 })).body.error).toBe("invalid_grant");
    expect(await exchange({ ...base, scope: undefined })).toMatchObject({
      status: 400,
      body: { error: "invalid_scope" },
    });
  });

  it("refuses a self-signed JWT used directly as a bearer token (Sheets v4 and Drive v3)", async () => {
    const auth = new JWT({
      email: account.email,
      key: account.privateKey,
      scopes: [`${AUTH}spreadsheets`, `${AUTH}drive`],
    });
    auth.useJWTAccessWithScope = true;
    const options = { auth, rootUrl: `${emulator.url}/`, retry: false };
    const s = await failure(
      sheets({ version: "v4", ...options }).spreadsheets.values.get({
        spreadsheetId: DEMO_SPREADSHEET_ID,
        range: "A1",
      }),
    );
    expect(s).toMatchObject({ status: 401, data: { error: { code: 401, status: "UNAUTHENTICATED" } } });
    const d = await failure(drive({ version: "v3", ...options }).files.get({ fileId: DEMO_SPREADSHEET_ID }));
    expect(d.status).toBe(401);
  });
});

describe("scopes per method", () => {
  const scopeError = (data: Body) => ({
    status: data.error.status,
    detail: data.error.details?.[0]?.reason,
    reason: data.error.errors?.[0]?.reason,
  });

  it("values.* accept drive, drive.readonly and spreadsheets(.readonly) for reads; writes need a writing scope", async () => {
    for (const scope of ["drive", "drive.readonly", "spreadsheets", "spreadsheets.readonly"]) {
      const { data } = await clientsWith([scope]).sheets.spreadsheets.values.get({
        spreadsheetId: DEMO_SPREADSHEET_ID,
        range: "Products!A1",
      });
      expect(data.values, scope).toEqual([["id"]]);
    }
    const readOnly = await failure(
      clientsWith(["spreadsheets.readonly"]).sheets.spreadsheets.values.update({
        spreadsheetId: DEMO_SPREADSHEET_ID,
        range: "Products!B2",
        valueInputOption: "RAW",
        requestBody: { values: [["x"]] },
      }),
    );
    expect(readOnly.status).toBe(403);
    // Sheets v4 names the reason in details[] only; Drive v3 keeps the errors[] array as well.
    expect(scopeError(readOnly.data)).toEqual({
      status: "PERMISSION_DENIED",
      detail: "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
      reason: undefined,
    });
  });

  it("refuses Sheets to a Drive-metadata-only token and Drive files.get to a Sheets-only token", async () => {
    const metadataOnly = await failure(
      clientsWith(["drive.metadata.readonly"]).sheets.spreadsheets.values.get({
        spreadsheetId: DEMO_SPREADSHEET_ID,
        range: "A1",
      }),
    );
    expect(metadataOnly.status).toBe(403);
    expect(scopeError(metadataOnly.data).detail).toBe("ACCESS_TOKEN_SCOPE_INSUFFICIENT");
    const sheetsOnly = await failure(
      clientsWith(["spreadsheets"]).drive.files.get({ fileId: DEMO_SPREADSHEET_ID, supportsAllDrives: true }),
    );
    expect(sheetsOnly.status).toBe(403);
    expect(scopeError(sheetsOnly.data)).toEqual({
      status: "PERMISSION_DENIED",
      detail: "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
      reason: "insufficientPermissions",
    });
    // Scopes are checked before the file: even an unknown id answers 403, not 404.
    expect((await failure(clientsWith(["spreadsheets"]).drive.files.get({ fileId: "1nope" }))).status).toBe(403);
  });
});

describe("Drive files.get", () => {
  let files: drive_v3.Drive;
  beforeAll(() => {
    files = clientsWith(["drive.metadata.readonly"]).drive;
  });

  it("answers 404 File not found for a file the caller cannot see, never 403", async () => {
    const res = await failure(files.files.get({ fileId: NO_ACCESS_SPREADSHEET_ID, supportsAllDrives: true }));
    expect(res.status).toBe(404);
    expect(res.data.error.message).toBe(`File not found: ${NO_ACCESS_SPREADSHEET_ID}.`);
    expect(res.data.error.errors[0]).toMatchObject({ reason: "notFound", location: "fileId" });
  });

  it("finds a file in a shared drive only with supportsAllDrives=true", async () => {
    const without = await failure(files.files.get({ fileId: SHARED_DRIVE_SPREADSHEET_ID, fields: "id" }));
    expect(without.status).toBe(404);
    const { data } = await files.files.get({
      fileId: SHARED_DRIVE_SPREADSHEET_ID,
      fields: "id,driveId,capabilities(canEdit)",
      supportsAllDrives: true,
    });
    expect(data.driveId).toBeTruthy();
    expect(data.capabilities?.canEdit).toBe(true);
    // The Sheets API itself does not care which drive the file is in.
    const values = await clientsWith(["spreadsheets"]).sheets.spreadsheets.values.get({
      spreadsheetId: SHARED_DRIVE_SPREADSHEET_ID,
      range: "Milestones!A1:B1",
    });
    expect(values.data.values).toEqual([["id", "milestone"]]);
  });
});

describe("403 reasons as faults, with Google's bodies", () => {
  it("SERVICE_DISABLED (Sheets), userRateLimitExceeded and rateLimitExceeded (Drive), API-key restrictions", async () => {
    const c = clientsWith(["spreadsheets", "drive.metadata.readonly"]);
    emulator.faults.add({ route: "values.get", reason: "SERVICE_DISABLED" });
    const disabled = await failure(
      c.sheets.spreadsheets.values.get({ spreadsheetId: DEMO_SPREADSHEET_ID, range: "A1" }),
    );
    expect(disabled.status).toBe(403);
    expect(disabled.data.error).toMatchObject({
      status: "PERMISSION_DENIED",
      details: [{ reason: "SERVICE_DISABLED", metadata: { service: "sheets.googleapis.com" } }],
    });
    expect(disabled.data.error.message).toContain("Google Sheets API has not been used in project");

    for (const reason of ["userRateLimitExceeded", "rateLimitExceeded"] as const) {
      emulator.faults.add({ route: "files.get", reason });
      const limited = await failure(c.drive.files.get({ fileId: DEMO_SPREADSHEET_ID, supportsAllDrives: true }));
      expect(limited.status).toBe(403);
      expect(limited.data.error.errors[0]).toMatchObject({ domain: "usageLimits", reason });
      // Sheets never answers so: it says 429 RESOURCE_EXHAUSTED.
      expect(() => emulator.faults.add({ route: "values.get", reason })).toThrow(
        /Sheets answers rate limits with status 429/,
      );
    }

    const anonymous = sheets({ version: "v4", auth: EMULATOR_API_KEY, rootUrl: `${emulator.url}/`, retry: false });
    emulator.faults.add({ route: "values.get", reason: "API_KEY_SERVICE_BLOCKED" });
    const blocked = await failure(
      anonymous.spreadsheets.values.get({ spreadsheetId: DEMO_SPREADSHEET_ID, range: "A1" }),
    );
    expect(blocked.data.error).toMatchObject({
      code: 403,
      status: "PERMISSION_DENIED",
      details: [{ reason: "API_KEY_SERVICE_BLOCKED" }],
    });
    emulator.faults.add({ route: "values.get", reason: "API_KEY_HTTP_REFERRER_BLOCKED" });
    const referrer = await failure(
      anonymous.spreadsheets.values.get({ spreadsheetId: DEMO_SPREADSHEET_ID, range: "A1" }),
    );
    expect(referrer.data.error.details[0].reason).toBe("API_KEY_HTTP_REFERRER_BLOCKED");
  });
});

describe("refresh tokens", () => {
  const client = () =>
    new OAuth2Client({
      clientId: "client-a",
      clientSecret: "secret",
      redirectUri: "http://127.0.0.1:9/cb",
      endpoints: { oauth2AuthBaseUrl: `${emulator.url}/o/oauth2/v2/auth`, oauth2TokenUrl: `${emulator.url}/token` },
    });
  const grant = async (email: string, options: { access_type?: string; prompt?: string }) => {
    const c = client();
    const code = await allowConsent(c.generateAuthUrl({ scope: ["openid", `${AUTH}spreadsheets`], ...options }), email);
    return (await c.getToken(code)).tokens;
  };

  it("are issued only with access_type=offline, and again only with prompt=consent", async () => {
    expect((await grant("online@example.com", {})).refresh_token).toBeUndefined();
    const first = await grant("offline@example.com", { access_type: "offline" });
    expect(first.refresh_token).toBeTruthy();
    expect((await grant("offline@example.com", { access_type: "offline" })).refresh_token).toBeUndefined();
    const again = await grant("offline@example.com", { access_type: "offline", prompt: "consent" });
    expect(again.refresh_token).toBeTruthy();
    expect(again.refresh_token).not.toBe(first.refresh_token);
  });

  it("outlive a restart of an emulator that keeps its data in a file, as Google's grants do", async () => {
    const { mkdtempSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dataFile = join(mkdtempSync(join(tmpdir(), "google-grants-")), "google.json");
    const first = await startGoogleEmulator({ serviceAccountKeys: [account], dataFile });
    const clientOf = (url: string) =>
      new OAuth2Client({
        clientId: "client-a",
        clientSecret: "secret",
        redirectUri: "http://127.0.0.1:9/cb",
        endpoints: { oauth2AuthBaseUrl: `${url}/o/oauth2/v2/auth`, oauth2TokenUrl: `${url}/token` },
      });
    const c = clientOf(first.url);
    const code = await allowConsent(
      c.generateAuthUrl({ scope: ["openid", `${AUTH}spreadsheets`], access_type: "offline" }),
      "restart@example.com",
    );
    const { refresh_token } = (await c.getToken(code)).tokens;
    await first.stop();

    const second = await startGoogleEmulator({ serviceAccountKeys: [account], dataFile });
    try {
      const again = clientOf(second.url);
      again.setCredentials({ refresh_token });
      expect((await again.refreshAccessToken()).credentials.access_token).toBeTruthy();
      const { data } = await sheets({ version: "v4", auth: again, rootUrl: `${second.url}/` }).spreadsheets.values.get({
        spreadsheetId: DEMO_SPREADSHEET_ID,
        range: "Products!A1",
      });
      expect(data.values).toEqual([["id"]]);
    } finally {
      await second.stop();
    }
  });

  it("are not rotated on refresh, and answer invalid_grant once revoked", async () => {
    const { refresh_token } = await grant("rotate@example.com", { access_type: "offline", prompt: "consent" });
    const c = client();
    c.setCredentials({ refresh_token });
    const refreshed = await c.refreshAccessToken();
    expect(refreshed.credentials.refresh_token).toBe(refresh_token);
    // The refreshed access token is honoured: rotate@example.com reaches the public demo sheet.
    const { data } = await sheets({ version: "v4", auth: c, rootUrl: `${emulator.url}/` }).spreadsheets.values.get({
      spreadsheetId: DEMO_SPREADSHEET_ID,
      range: "Products!A1",
    });
    expect(data.values).toEqual([["id"]]);
    const revoke = await fetch(`${emulator.url}/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: refresh_token! }),
    });
    expect(revoke.status).toBe(200);
    const gone = client();
    gone.setCredentials({ refresh_token });
    expect((await failure(gone.refreshAccessToken())).data).toMatchObject({ error: "invalid_grant" });
    const unknown = client();
    unknown.setCredentials({ refresh_token: "1//never-issued" });
    expect((await failure(unknown.refreshAccessToken())).data).toMatchObject({ error: "invalid_grant" });
  });

  it(`keep at most ${MAX_REFRESH_TOKENS} per account and client, silently revoking the oldest`, async () => {
    const tokens: string[] = [];
    for (let i = 0; i <= MAX_REFRESH_TOKENS; i++)
      tokens.push((await grant("many@example.com", { access_type: "offline", prompt: "consent" })).refresh_token!);
    const oldest = client();
    oldest.setCredentials({ refresh_token: tokens[0] });
    expect((await failure(oldest.refreshAccessToken())).data).toMatchObject({ error: "invalid_grant" });
    for (const token of [tokens[1], tokens[MAX_REFRESH_TOKENS]]) {
      const c = client();
      c.setCredentials({ refresh_token: token });
      expect((await c.refreshAccessToken()).credentials.access_token).toBeTruthy();
    }
  }, 60_000);
});
