// The service's Google clients against emulators/google: API key, service account, and an
// owner's OAuth grant through consent, code exchange, refresh and revocation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGoogleEmulator, type GoogleEmulator } from "@/emulators/google/server";
import { DEMO_SPREADSHEET_ID, PRIVATE_SPREADSHEET_ID } from "@/emulators/google/seed";
import { googleSettingsFor, consentCode } from "@/testing/google";
import { createGoogleClients, oauthClient, SHEETS_SCOPE, type GoogleSettings } from "./clients";
import { readGoogleError } from "./errors";

let emulator: GoogleEmulator;
let google: GoogleSettings;
const redirectUri = "http://127.0.0.1:9/callback";

beforeAll(async () => {
  emulator = await startGoogleEmulator();
  google = await googleSettingsFor(emulator.url);
});
afterAll(() => emulator.stop());

async function grant(email = "owner@example.com") {
  const client = oauthClient(google, redirectUri);
  const url = client.generateAuthUrl({
    access_type: "offline",
    prompt: "consent",
    scope: ["openid", "email", SHEETS_SCOPE],
    state: "s1",
  });
  const { code, state } = await consentCode(url, email);
  expect(state).toBe("s1");
  const { tokens } = await client.getToken(code);
  return tokens;
}

describe("Google clients", () => {
  it("read a public sheet with the API key and see edit rights with the service account", async () => {
    const byKey = createGoogleClients(google, { kind: "apiKey" });
    const { data } = await byKey.sheets.spreadsheets.get({ spreadsheetId: DEMO_SPREADSHEET_ID });
    expect(data.properties?.title).toBe("Acme Store");
    const bySa = createGoogleClients(google, { kind: "serviceAccount" });
    const file = await bySa.drive.files.get({ fileId: DEMO_SPREADSHEET_ID, fields: "capabilities(canEdit)" });
    expect(file.data.capabilities?.canEdit).toBe(true);
  });

  it("exchange a consent code for a refresh token that reaches the owner's private sheet", async () => {
    const tokens = await grant();
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.scope).toContain("spreadsheets");
    const clients = createGoogleClients(google, { kind: "oauth", refreshToken: tokens.refresh_token! });
    const { data } = await clients.sheets.spreadsheets.values.get({
      spreadsheetId: PRIVATE_SPREADSHEET_ID,
      range: "Budget!A1:C1",
    });
    expect(data.values).toEqual([["id", "item", "amount"]]);
  });

  it("report a revoked grant as invalid_grant", async () => {
    const tokens = await grant("revoked@example.com");
    await fetch(`${emulator.url}/__admin/revoke`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "revoked@example.com" }),
    });
    const clients = createGoogleClients(google, { kind: "oauth", refreshToken: tokens.refresh_token! });
    const err = await clients.sheets.spreadsheets
      .get({ spreadsheetId: PRIVATE_SPREADSHEET_ID })
      .catch((e: unknown) => e);
    expect(readGoogleError(err).invalidGrant).toBe(true);
  });

  it("read Google's error bodies", async () => {
    const clients = createGoogleClients(google, { kind: "serviceAccount" });
    const err = await clients.sheets.spreadsheets
      .get({ spreadsheetId: PRIVATE_SPREADSHEET_ID })
      .catch((e: unknown) => e);
    expect(readGoogleError(err)).toMatchObject({ status: 403, reason: "PERMISSION_DENIED", invalidGrant: false });
  });

  it("read Sheets' reasons from details[] alone (its bodies carry no errors[]), and Drive's from errors[]", async () => {
    const clients = createGoogleClients(google, { kind: "serviceAccount" });
    const failing = async (fault: Parameters<GoogleEmulator["faults"]["add"]>[0], call: () => Promise<unknown>) => {
      emulator.faults.add({ ...fault, count: -1 });
      try {
        return readGoogleError(await call().catch((e: unknown) => e));
      } finally {
        emulator.faults.clear();
      }
    };
    const read = () => clients.sheets.spreadsheets.values.get({ spreadsheetId: DEMO_SPREADSHEET_ID, range: "A1" });
    expect(await failing({ route: "values.get", status: 429 }, read)).toMatchObject({
      status: 429,
      reason: "RESOURCE_EXHAUSTED",
      reasons: ["RATE_LIMIT_EXCEEDED"],
      problem: "rate_limited",
    });
    expect(await failing({ route: "values.get", reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT" }, read)).toMatchObject({
      status: 403,
      reasons: ["ACCESS_TOKEN_SCOPE_INSUFFICIENT"],
      problem: "scope_missing",
    });
    const file = () =>
      clients.drive.files.get({ fileId: DEMO_SPREADSHEET_ID, fields: "modifiedTime", supportsAllDrives: true });
    expect(await failing({ route: "files.get", reason: "userRateLimitExceeded" }, file)).toMatchObject({
      status: 403,
      reasons: ["userRateLimitExceeded"],
      problem: "rate_limited",
    });
  });
});
