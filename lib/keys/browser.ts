// Publishable (browser) keys: what an owner may set on one, checked and normalised in one place,
// and the origin test the hot path runs. A publishable key is public by design (it ships in a web
// page), so it only reads, only from the origins its owner lists, and only the tabs and columns
// its owner chose.
import { ApiError, quoted } from "@/lib/errors";

export const MAX_ORIGINS = 20;
export const MAX_SCOPE_NAMES = 200;
/** Requests per minute from one visitor address when the owner sets nothing. */
export const DEFAULT_VISITOR_LIMIT = 60;
export const MAX_VISITOR_LIMIT = 10_000;

export interface BrowserKeySettings {
  origins: string[];
  /** Null: every tab. */
  tabs: string[] | null;
  /** Null: every column. */
  columns: string[] | null;
  visitorLimit: number;
}

const bad = (message: string) => new ApiError("validation_error", message);

/**
 * `https://app.example.com`, `http://localhost:3000`, or `https://*.example.com` (any subdomain of
 * example.com, at any depth, not example.com itself): scheme, host and port only, lower-cased,
 * without the default port. Anything else (a path, a query, `null`, another scheme) is refused.
 */
export function normalizeOrigin(input: string): string {
  const text = input.trim().replace(/\/$/, "");
  const parts = /^(https?):\/\/(\*\.)?([^/?#@\s*]+)$/i.exec(text);
  if (!parts) {
    throw bad(
      `${quoted(input)} is not an origin: give only https://host or http://host[:port], without a path, query or fragment (e.g. https://www.example.com).`,
    );
  }
  const [, scheme, wildcard, host] = parts;
  let url: URL;
  try {
    url = new URL(`${scheme}://${host}`);
  } catch {
    throw bad(`${quoted(input)} is not an origin: its host is not valid.`);
  }
  if (!wildcard) return url.origin;
  const domain = url.host;
  if (!url.hostname.includes(".") || /^[\d.]+$/.test(url.hostname) || url.hostname.startsWith("[")) {
    throw bad(
      `${quoted(input)}: a wildcard covers the subdomains of a domain name with at least two labels, such as https://*.example.com.`,
    );
  }
  return `${url.protocol}//*.${domain}`;
}

/** True when `origin` (the request's Origin header) is one of `allowed`. */
export function originAllowed(allowed: readonly string[], origin: string | null): boolean {
  if (!origin) return false;
  for (const entry of allowed) {
    if (entry === origin) return true;
    const star = entry.indexOf("://*.");
    if (star < 0) continue;
    const scheme = entry.slice(0, star + 3);
    const suffix = entry.slice(star + 4); // ".example.com[:port]"
    if (!origin.startsWith(scheme)) continue;
    const host = origin.slice(scheme.length);
    if (host.endsWith(suffix) && host.length > suffix.length && !host.slice(0, -suffix.length).includes(":"))
      return true;
  }
  return false;
}

function names(label: string, list: string[] | null | undefined): string[] | null {
  if (list === null || list === undefined) return null;
  const out = [...new Set(list.map((n) => n.trim()).filter(Boolean))];
  if (!out.length) return null;
  if (out.length > MAX_SCOPE_NAMES) throw bad(`At most ${MAX_SCOPE_NAMES} ${label} per key.`);
  return out;
}

/** Checks and normalises what an owner sets on a publishable key. */
export function browserKeySettings(input: {
  origins?: string[];
  tabs?: string[] | null;
  columns?: string[] | null;
  visitorLimit?: number | null;
}): BrowserKeySettings {
  const origins = [...new Set((input.origins ?? []).filter((o) => o.trim()).map(normalizeOrigin))];
  if (!origins.length)
    throw bad(
      "A browser key needs at least one allowed origin, such as https://www.example.com: it works only from the pages of the origins you list.",
    );
  if (origins.length > MAX_ORIGINS) throw bad(`At most ${MAX_ORIGINS} origins per key.`);
  const limit = input.visitorLimit ?? DEFAULT_VISITOR_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_VISITOR_LIMIT)
    throw bad(`The per-visitor limit is a whole number of requests per minute from 1 to ${MAX_VISITOR_LIMIT}.`);
  return { origins, tabs: names("tabs", input.tabs), columns: names("columns", input.columns), visitorLimit: limit };
}

/** Publishable keys read and nothing else. */
export function checkPublishablePermissions(permissions: readonly string[]): void {
  if (permissions.length !== 1 || permissions[0] !== "read") {
    throw bad(
      "A browser (publishable) key can only have the Read permission: it is visible to anyone who opens the page. Use a secret key on a server to write, read the schema or see usage.",
    );
  }
}
