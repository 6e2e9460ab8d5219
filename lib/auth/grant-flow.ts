// The redirects of the private flow (GET and POST /auth/google?sheet_url=, its callback, and
// connecting Google for the Picker): where each outcome lands the person. Route handlers stay thin.
import { ApiError } from "@/lib/errors";
import { needsPicker, usableGrants } from "@/lib/sheets/access/proof";
import { registerSheet } from "@/lib/sheets/registration/registration";
import { translateGoogleError } from "@/lib/sheets/sheet-access";
import { completeGrant, GRANT_CALLBACK_PATH, GRANT_COOKIE, startGrant } from "./google-grant";
import { cookieAttributes, secureCookies } from "./dashboard-flash";
import { errorFlash } from "./error-flash";
import { newKeyCookie } from "./new-key-flash";
import type { SessionUser } from "./session";

const grantCookie = (value: string, maxAge: number) =>
  `${GRANT_COOKIE}=${encodeURIComponent(value)}; ${cookieAttributes(GRANT_CALLBACK_PATH, maxAge, secureCookies())}`;

function redirect(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ Location: location });
  for (const c of cookies) headers.append("Set-Cookie", c);
  return new Response(null, { status: 302, headers });
}

/** Back to the dashboard, which shows what went wrong (never text taken from the URL). */
function failed(err: unknown, cookies: string[]): Response {
  const { cookie, location } = errorFlash((err instanceof ApiError ? err : translateGoogleError(err)).message);
  return redirect(location, [...cookies, cookie]);
}

const toGoogle = (user: SessionUser, sheetId?: string) => {
  const { authorizeUrl, cookie } = startGrant(user, sheetId);
  return redirect(authorizeUrl, [grantCookie(cookie, 600)]);
};

/** Registers through the grant; a sheet Google has not given SheetAPI yet goes to the Picker. */
async function registerThroughGrant(user: SessionUser, sheetId: string, cookies: string[]): Promise<Response> {
  try {
    const reg = await registerSheet({ userId: user.id, sheetUrl: sheetId, via: "grant" });
    if (reg.apiKey) cookies.push(newKeyCookie(reg.sheet.id, reg.apiKey));
    // A sheet already registered now goes through the grant: its page says that this happened.
    return redirect(
      `/dashboard/sheets/${encodeURIComponent(reg.sheet.id)}${reg.created ? "" : "?through=google"}`,
      cookies,
    );
  } catch (err) {
    if (needsPicker(err)) return redirect(`/dashboard?pick=${encodeURIComponent(sheetId)}&via=grant`, cookies);
    return failed(err, cookies);
  }
}

/**
 * A registration another site's link asked for: the dashboard shows the sheet and asks the owner
 * to confirm it, so a link on any page cannot register a sheet and create a key by itself.
 */
export function confirmFirst(sheetId: string): Response {
  return redirect(`/dashboard?register=${encodeURIComponent(sheetId)}`);
}

/**
 * A browser opened /auth/google with a `sheet_url` that is no sheet's address: the dashboard says
 * what was typed and what would do (the message is sealed in the flash cookie, never read from the
 * URL the dashboard is given). Signed out, the dashboard asks to sign in first and shows it after.
 */
export function notASheetForBrowsers(typed: string | null): Response {
  const shown = (typed ?? "").trim().slice(0, 200);
  const message = shown
    ? `“${shown}” is not a Google Sheets address. Open the spreadsheet in Google Sheets and copy the address from the browser's address bar (https://docs.google.com/spreadsheets/d/…/edit), or choose the sheet in Google Drive below.`
    : "The link did not name a spreadsheet. Choose the sheet in Google Drive below, or paste its address.";
  const { cookie, location } = errorFlash(message);
  return redirect(location, [cookie]);
}

/** /auth/google?sheet_url=: Google's consent only when the account has no usable grant. */
export async function startPrivateRegistration(user: SessionUser, sheetId: string): Promise<Response> {
  if (!(await usableGrants(user.id)).length) return toGoogle(user, sheetId);
  return registerThroughGrant(user, sheetId, []);
}

/** GET /auth/google/connect: a grant for the Picker, then back to the dashboard with it open. */
export async function connectGoogle(user: SessionUser): Promise<Response> {
  return toGoogle(user);
}

/** GET /auth/google/callback. */
export async function finishGrant(
  user: SessionUser,
  cookie: string | undefined,
  params: URLSearchParams,
): Promise<Response> {
  const cookies = [grantCookie("", 0)];
  let sheetId: string | undefined;
  try {
    ({ sheetId } = await completeGrant({ user, cookie, params }));
  } catch (err) {
    return failed(err, cookies);
  }
  if (!sheetId) return redirect("/dashboard?picker=open", cookies);
  return registerThroughGrant(user, sheetId, cookies);
}
