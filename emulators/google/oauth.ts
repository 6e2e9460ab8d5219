// Google-like OAuth 2.0 / OpenID Connect: oauth2-mock-server does the protocol, this adds what
// Google does around it (consent page, granted scopes, refresh-token rules, revocation, JWT-bearer
// grant, the registry of issued tokens; emulators/google/README.md).
import type { IncomingMessage, ServerResponse } from "node:http";
import { OAuth2Issuer, OAuth2Service } from "oauth2-mock-server";
import { emulatedSubjectOf } from "@/lib/emulator-defaults";
import { EMULATOR_USER } from "./seed";
import { AccessTokens, GOOGLE_TOKEN_URI, JWT_BEARER, ServiceAccountKeys, TokenError, verifyAssertion } from "./tokens";

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
  /** access_type=offline and prompt=consent on the authorization request. */
  offline?: boolean;
  consent?: boolean;
}

/** Google keeps at most this many live refresh tokens per account and OAuth client. */
export const MAX_REFRESH_TOKENS = 100;

/** Scopes that come with signing in: the consent screen does not let the person untick them. */
const SIGN_IN_SCOPES = new Set([
  "openid",
  "email",
  "profile",
  "https://www.googleapis.com/auth/userinfo.email",
  "https://www.googleapis.com/auth/userinfo.profile",
]);

/** What Google's consent screen says for each scope. */
const SCOPE_TEXT: Record<string, string> = {
  "https://www.googleapis.com/auth/drive.file":
    "See, edit, create and delete only the specific Google Drive files that you use with this app",
  "https://www.googleapis.com/auth/spreadsheets": "See, edit, create and delete all your Google Sheets spreadsheets",
  "https://www.googleapis.com/auth/spreadsheets.readonly": "See all your Google Sheets spreadsheets",
  "https://www.googleapis.com/auth/drive.metadata.readonly": "See information about your Google Drive files",
  "https://www.googleapis.com/auth/drive": "See, edit, create and delete all of your Google Drive files",
  "https://www.googleapis.com/auth/drive.readonly": "See and download all your Google Drive files",
};

type Json = Record<string, unknown>;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

import { SavedMap } from "./saved-map";

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
  const params = [...url.searchParams.entries()].filter(
    ([k]) => k !== "login_email" && k !== "decision" && k !== "granted",
  );
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
<ul>${scopes
    .filter((s) => SIGN_IN_SCOPES.has(s))
    .map((s) => `<li>${esc(s)}</li>`)
    .join("")}</ul>
${scopes
  .filter((s) => !SIGN_IN_SCOPES.has(s))
  .map(
    (s) =>
      `<p><label><input type="checkbox" name="granted" value="${esc(s)}" form="consent" checked> ${esc(SCOPE_TEXT[s] ?? s)}</label><br><small>${esc(s)}</small></p>`,
  )
  .join("")}
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
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
  /** Revokes every refresh and access token of the account (as "Remove access" in its settings). */
  revoke(email: string): void;
  /** The access tokens issued: the only bearer tokens Sheets and Drive honour. */
  tokens: AccessTokens;
  /** Public keys of service accounts, for the JWT-bearer grant. */
  serviceAccountKeys: ServiceAccountKeys;
  setAccessTokenTtl(seconds: number): void;
  reset(): void;
}

async function readForm(req: IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  if ((req.headers["content-type"] ?? "").includes("json")) {
    try {
      return JSON.parse(raw) as Json;
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

const basicAuthUser = (req: IncomingMessage) => {
  const header = req.headers.authorization;
  if (!header?.startsWith("Basic ")) return undefined;
  return Buffer.from(header.slice(6), "base64").toString("utf8").split(":")[0];
};

/** `grantsFile`: where the refresh tokens it grants are kept across restarts (none: in memory). */
export async function createEmulatorOAuth({ grantsFile }: { grantsFile?: string } = {}): Promise<EmulatorOAuth> {
  const issuer = new OAuth2Issuer();
  await issuer.keys.generate("RS256");
  const service = new OAuth2Service(issuer, OAUTH_PATHS);
  const byCode = new Map<string, Grant>();
  const byRefreshToken = new SavedMap<Grant & { client: string }>(grantsFile);
  const tokens = new AccessTokens();
  const serviceAccountKeys = new ServiceAccountKeys();

  const grantFor = (body: Json): Grant | undefined =>
    typeof body.code === "string"
      ? byCode.get(body.code)
      : typeof body.refresh_token === "string"
        ? byRefreshToken.get(body.refresh_token)
        : undefined;
  const clientOf = (req: IncomingMessage, body: Json) =>
    typeof body.client_id === "string" ? body.client_id : (basicAuthUser(req) ?? "");
  const liveRefreshTokens = (email: string, client: string) =>
    [...byRefreshToken].filter(([, g]) => g.email === email && g.client === client).map(([t]) => t);

  /**
   * Google's refresh-token rules for a code exchange: a refresh token only for access_type=offline;
   * when the account already has one for this client, a new one only with prompt=consent; at most
   * MAX_REFRESH_TOKENS live per account and client, the oldest silently revoked.
   */
  function refreshRules(response: { body: Json }, grant: Grant, client: string): void {
    const existing = liveRefreshTokens(grant.email, client);
    const token = response.body.refresh_token;
    if (typeof token !== "string" || !grant.offline || (existing.length > 0 && !grant.consent)) {
      delete response.body.refresh_token;
      return;
    }
    byRefreshToken.set(token, { ...grant, client });
    for (const old of existing.slice(0, Math.max(0, existing.length + 1 - MAX_REFRESH_TOKENS)))
      byRefreshToken.delete(old);
  }

  service.on("beforeAuthorizeRedirect", (redirect: { url: URL }, req: IncomingMessage & { query: Json }) => {
    const code = redirect.url.searchParams.get("code");
    if (!code) return;
    const client = typeof req.query.client_id === "string" ? req.query.client_id : undefined;
    const prompt = String(req.query.prompt ?? "").split(/\s+/);
    byCode.set(code, {
      email: String(req.query.login_email ?? EMULATOR_USER),
      scope: String(req.query.scope ?? "openid"),
      ...(client ? { client } : {}),
      offline: req.query.access_type === "offline",
      consent: prompt.includes("consent"),
    });
  });

  service.on("beforeTokenSigning", (token: { payload: Json }, req: IncomingMessage & { body: Json }) => {
    const grant = grantFor(req.body ?? {});
    const email = grant?.email ?? EMULATOR_USER;
    Object.assign(token.payload, {
      sub: emulatedSubjectOf(email),
      email,
      email_verified: true,
      name: email.split("@")[0],
      scope: grant?.scope ?? token.payload.scope,
      ...(grant?.client ? { azp: grant.client } : {}),
      exp: Number(token.payload.iat) + tokens.ttlSeconds,
    });
  });

  service.on(
    "beforeResponse",
    (response: { statusCode: number; body: Json }, req: IncomingMessage & { body: Json }) => {
      const body = req.body ?? {};
      const grant = grantFor(body);
      const client = grant?.client ?? clientOf(req, body);
      if (body.grant_type === "refresh_token") {
        if (!grant) {
          response.statusCode = 400;
          response.body = { error: "invalid_grant", error_description: "Token has been expired or revoked." };
          return;
        }
        // Google keeps the refresh token: it is not rotated on refresh.
        delete response.body.refresh_token;
        delete response.body.id_token;
      } else if (body.grant_type === "authorization_code") {
        if (!grant) {
          response.statusCode = 400;
          response.body = { error: "invalid_grant", error_description: "Bad Request" };
          return;
        }
        byCode.delete(String(body.code));
        refreshRules(response, grant, client);
      }
      if (grant) {
        response.body.scope = grant.scope;
        if (typeof response.body.access_token === "string") {
          tokens.record(
            response.body.access_token,
            grant.email,
            grant.scope.split(/\s+/).filter(Boolean),
            client || undefined,
          );
        }
      }
      response.body.expires_in = tokens.ttlSeconds;
    },
  );

  service.on("beforeUserinfo", (response: { body: Json }, req: IncomingMessage) => {
    const claims = decodeClaims(req.headers.authorization);
    const email = typeof claims?.email === "string" ? claims.email : EMULATOR_USER;
    response.body = { sub: emulatedSubjectOf(email), email, email_verified: true, name: email.split("@")[0] };
  });

  /** The token endpoint's own grants: JWT-bearer (service accounts) and revocation. */
  async function handleTokenEndpoint(
    req: IncomingMessage & { body?: Json },
    res: ServerResponse,
    url: URL,
  ): Promise<boolean> {
    const body = await readForm(req);
    // oauth2-mock-server's body parser sees the stream consumed and keeps this body.
    req.body = body;
    if (url.pathname === OAUTH_PATHS.revoke) {
      const token = String(body.token ?? url.searchParams.get("token") ?? "");
      if (!byRefreshToken.delete(token) && !tokens.revokeToken(token)) {
        sendJson(res, 400, { error: "invalid_token", error_description: "Token expired or revoked" });
      } else sendJson(res, 200, {});
      return true;
    }
    if (body.grant_type !== JWT_BEARER) return false;
    try {
      const origin = `http://${req.headers.host}`;
      const { email, scopes } = verifyAssertion(String(body.assertion ?? ""), serviceAccountKeys, [
        GOOGLE_TOKEN_URI,
        `${origin}${OAUTH_PATHS.token}`,
      ]);
      const { token, expiresIn } = tokens.issue(email, scopes);
      sendJson(res, 200, { access_token: token, expires_in: expiresIn, token_type: "Bearer" });
    } catch (err) {
      if (!(err instanceof TokenError)) throw err;
      sendJson(res, err.status, err.body());
    }
    return true;
  }

  return {
    issuer,
    tokens,
    serviceAccountKeys,
    async handle(req, res, url) {
      if (req.method === "POST" && (url.pathname === OAUTH_PATHS.token || url.pathname === OAUTH_PATHS.revoke)) {
        if (await handleTokenEndpoint(req, res, url)) return;
      }
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
      for (const [token, grant] of byRefreshToken) if (grant.email === email) byRefreshToken.delete(token);
      tokens.revokeAccount(email);
    },
    setAccessTokenTtl(seconds) {
      tokens.ttlSeconds = seconds;
    },
    reset() {
      tokens.ttlSeconds = 3600;
    },
  };
}
