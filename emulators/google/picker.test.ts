// drive.file, granular consent and the Picker stand-in, through the HTTP surface a browser and
// the product's googleapis clients use.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DRIVE_FILE_SCOPE } from "./drive-file";
import { DEMO_SPREADSHEET_ID, EMULATOR_API_KEY, PRIVATE_SPREADSHEET_ID } from "./seed";
import { startGoogleEmulator, type GoogleEmulator } from "./server";

let emulator: GoogleEmulator;
beforeAll(async () => {
  emulator = await startGoogleEmulator();
});
afterAll(() => emulator.stop());
beforeEach(() => emulator.store.reset());

const SHEETS = "https://www.googleapis.com/auth/spreadsheets";

/** Consent as `email`, ticking only `ticked` (undefined: the page is skipped), and the token answer. */
async function token(
  email: string,
  scope: string[],
  ticked?: string[],
): Promise<{ access_token: string; scope: string }> {
  const url = new URL(`${emulator.url}/o/oauth2/v2/auth`);
  const params = {
    client_id: "app",
    redirect_uri: "http://127.0.0.1:9/cb",
    response_type: "code",
    scope: ["openid", "email", ...scope].join(" "),
    login_email: email,
    decision: "allow",
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (ticked) {
    url.searchParams.set("consent_shown", "1");
    for (const s of ticked) url.searchParams.append("granted", s);
  }
  const code = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!).searchParams.get("code")!;
  const res = await fetch(`${emulator.url}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      client_id: "app",
      client_secret: "s",
      redirect_uri: "http://127.0.0.1:9/cb",
    }),
  });
  return (await res.json()) as { access_token: string; scope: string };
}

const filesGet = (accessToken: string, id: string) =>
  fetch(`${emulator.url}/drive/v3/files/${id}?fields=ownedByMe,capabilities(canEdit)`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });

const pick = (accessToken: string, fileId: string, appId = "123456") =>
  fetch(`${emulator.url}/picker/pick`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ oauth_token: accessToken, fileId, appId }),
  });

describe("granular consent", () => {
  it("grants only the scopes left ticked, and says so in the token answer", async () => {
    const all = await token("owner@example.com", [DRIVE_FILE_SCOPE, SHEETS], [DRIVE_FILE_SCOPE, SHEETS]);
    expect(all.scope.split(" ")).toEqual(expect.arrayContaining([DRIVE_FILE_SCOPE, SHEETS]));
    const some = await token("owner@example.com", [DRIVE_FILE_SCOPE, SHEETS], [SHEETS]);
    expect(some.scope.split(" ")).toContain(SHEETS);
    expect(some.scope).not.toContain(DRIVE_FILE_SCOPE);
    expect(some.scope.split(" ")).toContain("openid");
  });

  it("shows a tickable box per scope beyond sign-in", async () => {
    const url = `${emulator.url}/o/oauth2/v2/auth?client_id=app&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb&response_type=code&scope=${encodeURIComponent(`openid email ${DRIVE_FILE_SCOPE}`)}`;
    const html = await (await fetch(url)).text();
    expect(html).toContain(`name="granted" value="${DRIVE_FILE_SCOPE}"`);
    expect(html).toContain("only the specific Google Drive files that you use with this app");
    expect(html).not.toContain('name="granted" value="openid"');
  });
});

describe("drive.file and the Picker", () => {
  it("answers files.get 404 until the person picks the file, then reports canEdit", async () => {
    const { access_token } = await token("owner@example.com", [DRIVE_FILE_SCOPE]);
    const before = await filesGet(access_token, PRIVATE_SPREADSHEET_ID);
    expect(before.status).toBe(404);
    expect(((await before.json()) as { error: { message: string } }).error.message).toBe(
      `File not found: ${PRIVATE_SPREADSHEET_ID}.`,
    );
    const picked = await pick(access_token, PRIVATE_SPREADSHEET_ID);
    expect(await picked.json()).toMatchObject({
      id: PRIVATE_SPREADSHEET_ID,
      name: "Private Budget",
      mimeType: "application/vnd.google-apps.spreadsheet",
    });
    const after = await filesGet(access_token, PRIVATE_SPREADSHEET_ID);
    expect(after.status).toBe(200);
    expect(await after.json()).toMatchObject({ ownedByMe: true, capabilities: { canEdit: true } });
    // Only the picked file: the demo sheet, which the same person owns, is still out of reach.
    expect((await filesGet(access_token, DEMO_SPREADSHEET_ID)).status).toBe(404);
    const values = await fetch(`${emulator.url}/v4/spreadsheets/${DEMO_SPREADSHEET_ID}/values/A1`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(values.status).toBe(403);
  });

  it("grants nothing to another person, nor without the app id, nor for a file the picker cannot show", async () => {
    const owner = await token("owner@example.com", [DRIVE_FILE_SCOPE]);
    const stranger = await token("stranger@example.com", [DRIVE_FILE_SCOPE]);
    await pick(owner.access_token, PRIVATE_SPREADSHEET_ID, "");
    expect((await filesGet(owner.access_token, PRIVATE_SPREADSHEET_ID)).status).toBe(404);
    await pick(owner.access_token, PRIVATE_SPREADSHEET_ID);
    expect((await filesGet(stranger.access_token, PRIVATE_SPREADSHEET_ID)).status).toBe(404);
    expect((await pick(stranger.access_token, PRIVATE_SPREADSHEET_ID)).status).toBe(404);
  });

  it("lists the person's spreadsheets in the frame, and link-viewable ones only when named", async () => {
    const { access_token } = await token("viewer@example.com", [DRIVE_FILE_SCOPE]);
    const frame = (fileIds = "") =>
      fetch(
        `${emulator.url}/picker?${new URLSearchParams({ oauth_token: access_token, developerKey: EMULATOR_API_KEY, appId: "1", view: "spreadsheets", fileIds, origin: "http://localhost" })}`,
      ).then((r) => r.text());
    expect(await frame()).not.toContain(DEMO_SPREADSHEET_ID);
    expect(await frame(DEMO_SPREADSHEET_ID)).toContain(`data-file-id="${DEMO_SPREADSHEET_ID}"`);
    expect(await frame(PRIVATE_SPREADSHEET_ID)).not.toContain(`data-file-id="${PRIVATE_SPREADSHEET_ID}"`);
    const script = await (await fetch(`${emulator.url}/js/api.js`)).text();
    expect(script).toContain("PickerBuilder");
  });
});
