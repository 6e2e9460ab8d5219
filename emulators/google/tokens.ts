// Access tokens as Google treats them: only tokens its token endpoint issued are honoured, each with
// its account, scopes and expiry; service accounts get theirs through the JWT-bearer grant
// (RFC 7523, emulators/google/README.md).
import { createPublicKey, createVerify, randomBytes, type KeyObject } from "node:crypto";

/** The `token_uri` of every Google service-account key file, and the `aud` Google expects. */
export const GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token";
export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/** How far `iat` may run ahead of Google's clock, and the longest assertion Google accepts. */
const CLOCK_SKEW_S = 300;
const MAX_ASSERTION_S = 3600;

export interface IssuedToken {
  email: string;
  scopes: string[];
  /** The OAuth client it was issued to (none for a service account's own token). */
  client?: string;
  expiresAt: number;
}

/** An OAuth token-endpoint refusal: `{error, error_description}` with HTTP 400 (401 for clients). */
export class TokenError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
  body() {
    return { error: this.error, error_description: this.description };
  }
}

export class AccessTokens {
  private tokens = new Map<string, IssuedToken>();
  ttlSeconds = 3600;

  /** Google's access tokens are opaque strings starting `ya29.`. */
  issue(email: string, scopes: string[], client?: string): { token: string; expiresIn: number } {
    const token = `ya29.${randomBytes(48).toString("base64url")}`;
    this.record(token, email, scopes, client);
    return { token, expiresIn: this.ttlSeconds };
  }

  /** Remembers a token issued elsewhere (the OAuth library's own), with the grant's scopes. */
  record(token: string, email: string, scopes: string[], client?: string, now = Date.now()): void {
    for (const [t, issued] of this.tokens) if (issued.expiresAt <= now) this.tokens.delete(t);
    this.tokens.set(token, { email, scopes, ...(client ? { client } : {}), expiresAt: now + this.ttlSeconds * 1000 });
  }

  lookup(token: string, now = Date.now()): IssuedToken | undefined {
    const issued = this.tokens.get(token);
    return issued && issued.expiresAt > now ? issued : undefined;
  }

  revokeToken(token: string): boolean {
    return this.tokens.delete(token);
  }

  /** Revoking a grant ends the access tokens issued for it at once. */
  revokeAccount(email: string): void {
    for (const [t, issued] of this.tokens) if (issued.email === email) this.tokens.delete(t);
  }
}

/** The public keys Google holds for each service account (created in IAM or uploaded). */
export class ServiceAccountKeys {
  private keys = new Map<string, KeyObject[]>();

  add(email: string, publicKeyPem: string): void {
    const key = createPublicKey(publicKeyPem);
    this.keys.set(email, [...(this.keys.get(email) ?? []), key]);
  }

  /** Deleting an account's keys in IAM: assertions signed with them stop verifying. */
  deleteAll(email: string): void {
    this.keys.delete(email);
  }

  of(email: string): KeyObject[] {
    return this.keys.get(email) ?? [];
  }
}

function decodePart(part: string | undefined): Record<string, unknown> {
  try {
    const parsed = JSON.parse(Buffer.from(part ?? "", "base64url").toString("utf8")) as unknown;
    if (parsed && typeof parsed === "object") return parsed as Record<string, unknown>;
  } catch {
    // Falls through to the refusal below.
  }
  throw new TokenError("invalid_grant", "Invalid JWT: the assertion is not a JSON Web Token.");
}

/**
 * Checks a JWT-bearer assertion as Google's token endpoint does and returns the service account
 * and scopes it may have a token for. `audiences` are the token URIs this endpoint answers for.
 */
export function verifyAssertion(
  assertion: string,
  keys: ServiceAccountKeys,
  audiences: string[],
  now = Date.now(),
): { email: string; scopes: string[] } {
  const [h, p, signature, extra] = assertion.split(".");
  if (extra !== undefined || !h || !p || !signature)
    throw new TokenError("invalid_grant", "Invalid JWT: the assertion is not a JSON Web Token.");
  const header = decodePart(h);
  const claims = decodePart(p);
  if (header.alg !== "RS256") throw new TokenError("invalid_grant", "Invalid JWT Signature.");
  const email = typeof claims.iss === "string" ? claims.iss : "";
  const publicKeys = keys.of(email);
  if (!publicKeys.length) throw new TokenError("invalid_grant", "Invalid grant: account not found");
  const signed = `${h}.${p}`;
  const valid = publicKeys.some((key) =>
    createVerify("RSA-SHA256").update(signed).verify(key, Buffer.from(signature, "base64url")),
  );
  if (!valid) throw new TokenError("invalid_grant", "Invalid JWT Signature.");
  if (typeof claims.aud !== "string" || !audiences.includes(claims.aud)) {
    throw new TokenError(
      "invalid_grant",
      `Invalid JWT: Failed audience check. The right audience is ${GOOGLE_TOKEN_URI}`,
    );
  }
  const iat = Number(claims.iat);
  const exp = Number(claims.exp);
  const nowS = now / 1000;
  if (
    !Number.isFinite(iat) ||
    !Number.isFinite(exp) ||
    iat > nowS + CLOCK_SKEW_S ||
    exp <= nowS ||
    exp <= iat ||
    exp - iat > MAX_ASSERTION_S
  ) {
    throw new TokenError(
      "invalid_grant",
      "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.",
    );
  }
  const scopes = typeof claims.scope === "string" ? claims.scope.split(/\s+/).filter(Boolean) : [];
  const known = (s: string) =>
    /^https:\/\/www\.googleapis\.com\/auth\/[\w.-]+$/.test(s) || ["openid", "email", "profile"].includes(s);
  if (!scopes.length || !scopes.every(known))
    throw new TokenError("invalid_scope", "Invalid OAuth scope or ID token audience provided.");
  return { email, scopes };
}
