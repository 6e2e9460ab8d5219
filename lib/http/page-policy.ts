// The pages' Content-Security-Policy: a per-answer nonce with 'strict-dynamic' on proxied pages,
// a static policy elsewhere (lib/http/README.md). Imported by next.config.ts too, hence no path
// aliases here.

// The Google Picker (registering a sheet) is the one third-party content: Google's loader script
// and its frame. When Google is emulated (no OAuth client configured, or an API root set), the
// emulator's stand-in is served from loopback instead.
function pickerSources(env: NodeJS.ProcessEnv): string {
  const emulated = !env.GOOGLE_CLIENT_ID || Boolean(env.GOOGLE_API_ROOT_URL);
  const scriptOrigin = env.GOOGLE_PICKER_SCRIPT_URL ? new URL(env.GOOGLE_PICKER_SCRIPT_URL).origin : "";
  return [
    "https://apis.google.com",
    "https://docs.google.com",
    scriptOrigin,
    ...(emulated ? ["http://127.0.0.1:*", "http://localhost:*"] : []),
  ]
    .filter(Boolean)
    .join(" ");
}

/**
 * The policy; `nonce` given: only scripts carrying it (and what they load) run. Styles stay
 * 'unsafe-inline': React writes style attributes, which no nonce can cover, and a style cannot
 * run code. `next dev` evaluates code, hence 'unsafe-eval' outside production.
 */
export function pagePolicy({ nonce, env = process.env }: { nonce?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const picker = pickerSources(env);
  const evalInDev = env.NODE_ENV === "production" ? "" : " 'unsafe-eval'";
  const scripts = nonce ? `'self' 'nonce-${nonce}' 'strict-dynamic'` : "'self' 'unsafe-inline'";
  return [
    "default-src 'self'",
    `script-src ${scripts}${evalInDev} ${picker}`,
    `frame-src 'self' ${picker}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join("; ");
}

/** A nonce for one answer: 128 random bits, base64 (CSP's nonce-source grammar). */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

/** The nonce a policy allows scripts by (only one this server could have made: base64 of 16 bytes). */
export function nonceOf(policy: string | null): string | undefined {
  return policy ? /'nonce-([A-Za-z0-9+/]{22}==)'/.exec(policy)?.[1] : undefined;
}
