// Google-like OAuth 2.0 / OpenID Connect for the emulator: oauth2-mock-server does the protocol;
// this adds what Google does around it: a consent page where the tester picks the account, the
// scopes granted per code and per refresh token, refresh tokens that are not rotated, revocation
// (invalid_grant), and a configurable access-token lifetime so tests can watch refreshes happen.
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { OAuth2Issuer, OAuth2Service } from "oauth2-mock-server";
import { EMULATOR_USER } from "./seed";

export const OAUTH_PATHS = {
  wellKnownDocument: "/.well-known/openid-configuration",
  authorize: "/o/oauth2/v2/auth",
  token: "/token",
  userinfo: "/v1/userinfo",
  jwks: "/oauth2/v3/certs",
  revoke: "/revoke",
  endSession: "/logout",
  introspect: "/introspect",
};

interface Grant {
  email: string;
  scope: string;
  /** The OAuth client the person granted access to (the token's azp). */
  client?: string;
}

/** Scopes that come with signing in: the consent screen does not let the person untick them. */
const SIGN_IN_SCOPES = new Set(["openid", "email", "profile", "https://www.googleapis.com/auth/userinfo.email", "https://www.googleapis.com/auth/userinfo.profile"]);

/** What Google's consent screen says for each scope. */
const SCOPE_TEXT: Record<string, string> = {
  "https://www.googleapis.com/auth/drive.file": "See, edit, create and delete only the specific Google Drive files that you use with this app",
  "https://www.googleapis.com/auth/spreadsheets": "See, edit, create and delete all your Google Sheets spreadsheets",
  "https://www.googleapis.com/auth/spreadsheets.readonly": "See all your Google Sheets spreadsheets",
  "https://www.googleapis.com/auth/drive.metadata.readonly": "See information about your Google Drive files",
  "https://www.googleapis.com/auth/drive": "See, edit, create and delete all of your Google Drive files",
  "https://www.googleapis.com/auth/drive.readonly": "See and download all your Google Drive files",
};

type Json = Record<string, unknown>;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Google's subject ids are stable numbers per account. */
export const subjectOf = (email: string) => String(BigInt(`0x${createHash("sha256").update(email).digest("hex").slice(0, 15)}`));

function decodeClaims(authorization: string | undefined): Json | undefined {
  const token = authorization?.replace(/^Bearer\s+/i, "");
  const payload = token?.split(".")[1];
  if (!payload) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Json;
  } catch {
    return undefined;
  }
}

/**
 * Granular consent: the scopes the person left ticked (sign-in scopes always). Without the
 * `granted` field (a client that skips the page) everything asked for is granted.
 */
function grantedScope(url: URL): string {
  const asked = (url.searchParams.get("scope") ?? "").split(/\s+/).filter(Boolean);
  if (!url.searchParams.has("consent_shown")) return asked.join(" ");
  const ticked = new Set(url.searchParams.getAll("granted"));
  return asked.filter((s) => SIGN_IN_SCOPES.has(s) || ticked.has(s)).join(" ");
}

function consentPage(url: URL): string {
  const params = [...url.searchParams.entries()].filter(([k]) => k !== "login_email" && k !== "decision" && k !== "granted");
  const hidden = params.map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`).join("");
  const scopes = (url.searchParams.get("scope") ?? "").split(/\s+/).filter(Boolean);
  const wantsSheets = scopes.some((s) => s.includes("spreadsheets") || s.includes("drive"));
  const email = url.searchParams.get("login_hint") ?? EMULATOR_USER;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sign in - Google Accounts (emulator)</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#202124}
h1{font-size:1.4rem}li{margin:.3rem 0}input[type=email]{width:100%;padding:.6rem;font-size:1rem;margin:.5rem 0 1rem;box-sizing:border-box}
button{padding:.6rem 1.2rem;font-size:1rem;margin-right:.5rem;cursor:pointer}.allow{background:#1a73e8;color:#fff;border:0;border-radius:4px}</style></head>
<body><h1>Google Accounts (emulator)</h1>
<p><strong>${esc(url.searchParams.get("client_id") ?? "An app")}</strong> wants to:</p>
<ul>${scopes.filter((s) => SIGN_IN_SCOPES.has(s)).map((s) => `<li>${esc(s)}</li>`).join("")}</ul>
${scopes.filter((s) => !SIGN_IN_SCOPES.has(s)).map((s) => `<p><label><input type="checkbox" name="granted" value="${esc(s)}" form="consent" checked> ${esc(SCOPE_TEXT[s] ?? s)}</label><br><small>${esc(s)}</small></p>`).join("")}
${wantsSheets ? "<p>This includes access to your Google Sheets spreadsheets.</p>" : ""}
<form id="consent" method="get" action="${OAUTH_PATHS.authorize}">${hidden}<input type="hidden" name="consent_shown" value="1">
<label for="login_email">Account</label>
<input id="login_email" type="email" name="login_email" value="${esc(email)}" required>
<button class="allow" type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" formnovalidate>Cancel</button>
</form></body></html>`;
}

export interface EmulatorOAuth {
  issuer: OAuth2Issuer;
  handle(req: IncomingMessage, res: ServerResponse, url: URL): void;
  revoke(email: string): void;
  revoked: ReadonlySet<string>;
  setAccessTokenTtl(seconds: number): void;
  reset(): void;
}

export async function createEmulatorOAuth(): Promise<EmulatorOAuth> {
  const issuer = new OAuth2Issuer();
  await issuer.keys.generate("RS256");
  const service = new OAuth2Service(issuer, OAUTH_PATHS);
  const byCode = new Map<string, Grant>();
  const byRefreshToken = new Map<string, Grant>();
  const revoked = new Set<string>();
  let accessTokenTtl = 3600;

  const grantFor = (body: Json): Grant | undefined =>
    typeof body.code === "string" ? byCode.get(body.code) : typeof body.refresh_token === "string" ? byRefreshToken.get(body.refresh_token) : undefined;

  service.on("beforeAuthorizeRedirect", (redirect: { url: URL }, req: IncomingMessage & { query: Json }) => {
    const code = redirect.url.searchParams.get("code");
    const client = typeof req.query.client_id === "string" ? req.query.client_id : undefined;
    if (code) byCode.set(code, { email: String(req.query.login_email ?? EMULATOR_USER), scope: String(req.query.scope ?? "openid"), ...(client ? { client } : {}) });
  });

  service.on("beforeTokenSigning", (token: { payload: Json }, req: IncomingMessage & { body: Json }) => {
    const grant = grantFor(req.body ?? {});
    const email = grant?.email ?? EMULATOR_USER;
    Object.assign(token.payload, {
      sub: subjectOf(email),
      email,
      email_verified: true,
      name: email.split("@")[0],
      scope: grant?.scope ?? token.payload.scope,
      ...(grant?.client ? { azp: grant.client } : {}),
      exp: Number(token.payload.iat) + accessTokenTtl,
    });
  });

  service.on("beforeResponse", (response: { statusCode: number; body: Json }, req: IncomingMessage & { body: Json }) => {
    const body = req.body ?? {};
    const grant = grantFor(body);
    if (body.grant_type === "refresh_token") {
      if (!grant || revoked.has(grant.email)) {
        response.statusCode = 400;
        response.body = { error: "invalid_grant", error_description: "Token has been expired or revoked." };
        return;
      }
      // Google keeps the refresh token: it is not rotated on refresh.
      delete response.body.refresh_token;
      delete response.body.id_token;
    } else if (grant && typeof response.body.refresh_token === "string") {
      byRefreshToken.set(response.body.refresh_token, grant);
      if (typeof body.code === "string") byCode.delete(body.code);
    }
    if (grant) response.body.scope = grant.scope;
    response.body.expires_in = accessTokenTtl;
  });

  service.on("beforeUserinfo", (response: { body: Json }, req: IncomingMessage) => {
    const claims = decodeClaims(req.headers.authorization);
    const email = typeof claims?.email === "string" ? claims.email : EMULATOR_USER;
    response.body = { sub: subjectOf(email), email, email_verified: true, name: email.split("@")[0] };
  });

  return {
    issuer,
    revoked,
    handle(req, res, url) {
      if (url.pathname === OAUTH_PATHS.authorize && req.method === "GET") {
        const decision = url.searchParams.get("decision");
        if (!decision) {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          res.end(consentPage(url));
          return;
        }
        if (decision !== "allow") {
          const back = new URL(url.searchParams.get("redirect_uri") ?? "/");
          back.searchParams.set("error", "access_denied");
          const state = url.searchParams.get("state");
          if (state) back.searchParams.set("state", state);
          res.writeHead(302, { location: back.toString() });
          res.end();
          return;
        }
        // What the person left ticked is what the code grants.
        url.searchParams.set("scope", grantedScope(url));
        req.url = `${url.pathname}?${url.searchParams}`;
      }
      service.requestHandler(req, res);
    },
    revoke(email) {
      revoked.add(email);
    },
    setAccessTokenTtl(seconds) {
      accessTokenTtl = seconds;
    },
    reset() {
      revoked.clear();
      accessTokenTtl = 3600;
    },
  };
}
