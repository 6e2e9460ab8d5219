// Secrets never leave in a trace or a log line: the API key googleapis puts in every public-sheet
// URL (`?key=`), tokens and codes in query strings, and any configured secret's value wherever it
// appears (span names, URL attributes, error messages, log lines).
import { loadedConfig, type AppConfig } from "@/lib/env";

export const CENSOR = "[redacted]";

/** Query parameters whose value is a credential, whatever service the URL belongs to. */
const SECRET_PARAMS =
  /([?&;](?:key|api_?key|access_token|refresh_token|id_token|token|client_secret|code|password|signature|sig)=)[^&#\s"']*/gi;
const BEARER = /(\bBearer\s+)[A-Za-z0-9._~+/=-]+/g;
/** Shorter values are placeholders (tests' "t"), and would censor ordinary words. */
const MIN_SECRET_LENGTH = 8;

let memo: { cfg: AppConfig; values: string[] } | undefined;

function secretsOf(cfg: AppConfig): string[] {
  const e = cfg.env;
  const passwordOf = (url: string | undefined) => {
    try {
      return url ? decodeURIComponent(new URL(url).password) : undefined;
    } catch {
      return undefined;
    }
  };
  const raw = [
    e.GOOGLE_API_KEY,
    cfg.google.apiKey,
    e.GOOGLE_PICKER_API_KEY,
    cfg.google.oauth.clientSecret,
    e.GOOGLE_CLIENT_SECRET,
    e.STRIPE_SECRET_KEY,
    e.STRIPE_WEBHOOK_SECRET,
    e.AUTH_SECRET,
    cfg.secrets.authSecret,
    e.ENCRYPTION_KEY,
    cfg.secrets.encryptionKey.toString("hex"),
    cfg.secrets.encryptionKey.toString("base64"),
    e.UPSTASH_REDIS_REST_TOKEN,
    e.METRICS_TOKEN,
    e.CRON_SECRET,
    e.DEMO_API_KEY,
    passwordOf(e.DATABASE_URL),
    passwordOf(e.REDIS_URL),
  ];
  const values = new Set<string>();
  for (const v of raw) {
    if (!v || v.length < MIN_SECRET_LENGTH) continue;
    values.add(v);
    values.add(encodeURIComponent(v));
  }
  // Longest first, so a secret that contains another is censored whole.
  return [...values].sort((a, b) => b.length - a.length);
}

/**
 * The configured secrets' values, once the process has loaded its configuration (it does at
 * start). Never loads it itself: a log line must not read the environment or write DATA_DIR.
 */
function secretValues(): string[] {
  const cfg = loadedConfig();
  if (!cfg) return [];
  if (memo?.cfg !== cfg) memo = { cfg, values: secretsOf(cfg) };
  return memo.values;
}

/** `text` with every credential in it censored. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const secret of secretValues()) if (out.includes(secret)) out = out.split(secret).join(CENSOR);
  if (out.includes("=")) out = out.replace(SECRET_PARAMS, `$1${CENSOR}`);
  if (out.includes("Bearer")) out = out.replace(BEARER, `$1${CENSOR}`);
  return out;
}
