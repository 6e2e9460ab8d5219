// SSRF guard for webhook targets: http(s) only, no credentials, no loopback, link-local, private
// or reserved address (ip-ranges.ts), checked on the very address each connection uses; no
// redirect is followed. WEBHOOK_ALLOWED_TARGETS opens named hosts, addresses or ranges (on one
// port or all); embedded defaults open this machine's loopback only.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP } from "node:net";
import { config } from "@/lib/env";
import { classifyAddress } from "./ip-ranges";

export class TargetRefused extends Error {}

/** One WEBHOOK_ALLOWED_TARGETS entry: a host name or an address range, on one port or (none given) on every port. */
interface AllowedEntry {
  host?: string;
  range?: BlockList;
  port?: number;
}

/** This machine, for embedded defaults: the loopback ranges and the name that means them. */
const THIS_MACHINE = "localhost,127.0.0.0/8,::1";

/** `name`, `name:port`, `10.0.0.0/8`, `10.0.0.5:8080`, `::1`, `[::1]:8080`, `[fd00::/8]:443`. */
function parseEntry(entry: string): AllowedEntry {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  const withPort = bracketed ? undefined : /^([^:]+):(\d+)$/.exec(entry);
  const target = bracketed?.[1] ?? withPort?.[1] ?? entry;
  const portText = bracketed?.[2] ?? withPort?.[2];
  const port = portText === undefined ? undefined : Number(portText);
  const [address, bits] = target.split("/");
  const family = isIP(address!);
  if (!family) return { host: target, port };
  const range = new BlockList();
  if (bits) range.addSubnet(address!, Number(bits), family === 4 ? "ipv4" : "ipv6");
  else range.addAddress(address!, family === 4 ? "ipv4" : "ipv6");
  return { range, port };
}

let allowedCache: { source: string; entries: AllowedEntry[] } | undefined;
function allowed(): AllowedEntry[] {
  const cfg = config();
  const source = [cfg.env.WEBHOOK_ALLOWED_TARGETS, cfg.embedded ? THIS_MACHINE : ""].filter(Boolean).join(",");
  if (allowedCache?.source !== source)
    allowedCache = {
      source,
      entries: source
        .split(",")
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean)
        .map(parseEntry),
    };
  return allowedCache.entries;
}

const onPort = (entry: AllowedEntry, port: number | undefined) => entry.port === undefined || entry.port === port;

/** Whether the allowlist names this host (on this port): its connection then skips the address check. */
const hostAllowed = (host: string, port: number) => allowed().some((e) => e.host === host && onPort(e, port));

/** The port a URL connects to. */
export const portOf = (url: URL) => Number(url.port || (url.protocol === "https:" ? 443 : 80));

/** Whether a resolved address may be reached (on `port`; without one, what is allowed on every port). */
export function addressAllowed(address: string, port?: number): boolean {
  const family = isIP(address) === 6 ? "ipv6" : "ipv4";
  if (allowed().some((e) => e.range?.check(address, family) && onPort(e, port))) return true;
  const found = classifyAddress(address);
  // ::ffff:10.0.0.1, 64:ff9b::a00:1 or 2002:a00:1:: is judged (allowlist included) as 10.0.0.1.
  return found.kind === "carries" ? addressAllowed(found.ipv4, port) : found.kind === "public";
}

const REFUSED = "a loopback, link-local, private or reserved address";

/**
 * What follows a refusal: on a local install (Google emulated, someone trying SheetAPI on their
 * own machine), how to let a receiver in; a hosted service's customers cannot set it. On embedded
 * defaults this machine is already allowed: only other hosts of the network need the setting.
 */
export function localTargetsHint(): string {
  const cfg = config();
  if (cfg.embedded)
    return " Receivers on this machine (localhost, 127.0.0.1) are allowed here; for another host of your network, start SheetAPI with WEBHOOK_ALLOWED_TARGETS set to it.";
  return cfg.google.emulated
    ? " To receive webhooks on this machine, start SheetAPI with WEBHOOK_ALLOWED_TARGETS=127.0.0.1 (or the host, address or range to allow)."
    : "";
}
/**
 * What a webhook URL may be, in a sentence for the owner. The targets an operator allowed are
 * named only on a local install: on a hosted service they are its internal hosts, which
 * customers' webhooks could reach and should not learn of.
 */
export function acceptedTargetsText(): string {
  const cfg = config();
  const operator = cfg.google.emulated
    ? cfg.env.WEBHOOK_ALLOWED_TARGETS.split(",")
        .map((t) => t.trim())
        .filter(Boolean)
        .join(", ")
    : "";
  const extra = [
    ...(cfg.embedded ? ["receivers on this machine (http://localhost:…, 127.0.0.1)"] : []),
    ...(operator ? [`${operator} (allowed on this server by WEBHOOK_ALLOWED_TARGETS)`] : []),
  ];
  return extra.length
    ? `Public http(s) addresses are accepted, and ${extra.join(", and ")}; no credentials in the URL.`
    : `Only public http(s) addresses are accepted (no private or loopback addresses, no credentials in the URL).${localTargetsHint()}`;
}

/** A refused address as the owner reads it: with the IPv4 address it carries, if any. */
function named(address: string): string {
  const found = classifyAddress(address);
  return found.kind === "carries" ? `${address} (carrying the IPv4 address ${found.ipv4})` : address;
}

const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, "").toLowerCase();

/** The URL's shape: http(s), a host, no credentials; an address written in it is checked here. */
export function checkTargetUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused("The URL is not valid.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new TargetRefused("Only http and https URLs can receive webhooks.");
  if (url.username || url.password)
    throw new TargetRefused("The URL must not carry credentials; authenticate the webhook by its signature instead.");
  if (raw.length > 2000) throw new TargetRefused("The URL is longer than 2,000 characters.");
  const host = bareHost(url);
  if (isIP(host) && !addressAllowed(host, portOf(url)))
    throw new TargetRefused(`${named(host)} is ${REFUSED}.${localTargetsHint()}`);
  return url;
}

/**
 * Why a name is refused. The same words whether it resolves to nothing or to a refused address,
 * and never that address: otherwise the check would tell anyone what the service's internal
 * names are and where they point.
 */
const notPublic = (hostname: string) =>
  new TargetRefused(`${hostname} does not resolve to a public address (${REFUSED} is refused).${localTargetsHint()}`);

/** DNS resolution that refuses private addresses (for a connection to `port`): used for the connection itself. */
const guardedLookup =
  (port: number) =>
  (
    hostname: string,
    options: { all?: boolean; family?: number },
    callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as LookupAddress[];
      if (!list.length || list.some((a) => !addressAllowed(a.address, port))) return callback(notPublic(hostname), []);
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };

/** Checks a URL before it is saved: its shape and what its name resolves to now. */
export async function checkTarget(raw: string): Promise<URL> {
  const url = checkTargetUrl(raw);
  const host = bareHost(url);
  if (isIP(host) || hostAllowed(host, portOf(url))) return url;
  await new Promise<void>((resolve, reject) =>
    guardedLookup(portOf(url))(host, { all: true }, (err) =>
      err ? reject(err instanceof TargetRefused ? err : notPublic(host)) : resolve(),
    ),
  );
  return url;
}

export interface PostResult {
  status: number;
  /** The start of the answer (up to `keepBytes`). */
  body: string;
  /** Where a 3xx answer pointed: not followed. */
  location?: string;
}

/**
 * POSTs `body` to the URL within `timeoutMs`, reading at most `maxBytes` of the answer. A
 * redirect is not followed: it is the receiver's answer (a failure, not 2xx), since following it
 * would let a receiver send the delivery to an address or port it was never checked for.
 * Throws TargetRefused or a network error.
 */
export async function guardedPost(
  raw: string,
  headers: Record<string, string>,
  body: string,
  { timeoutMs = config().env.WEBHOOK_TIMEOUT_MS, maxBytes = 64 * 1024, keepBytes = 2048 } = {},
): Promise<PostResult> {
  const deadline = Date.now() + timeoutMs;
  const res = await postOnce(checkTargetUrl(raw), headers, body, deadline);
  const status = res.statusCode ?? 0;
  const location = status >= 300 && status < 400 ? res.headers.location?.slice(0, 500) : undefined;
  return { status, body: await readBounded(res, maxBytes, keepBytes, deadline), ...(location ? { location } : {}) };
}

function postOnce(url: URL, headers: Record<string, string>, body: string, deadline: number): Promise<IncomingMessage> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) return Promise.reject(new Error("timed out"));
  const port = portOf(url);
  const trusted = hostAllowed(bareHost(url), port);
  return new Promise((resolve, reject) => {
    const req = (url.protocol === "https:" ? httpsRequest : httpRequest)(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        ...(trusted ? {} : { lookup: guardedLookup(port) as never }),
        timeout: remaining,
      },
      resolve,
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${Math.round(remaining)} ms`)), remaining);
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on("response", () => clearTimeout(timer));
    req.end(body);
  });
}

function readBounded(res: IncomingMessage, maxBytes: number, keepBytes: number, deadline: number): Promise<string> {
  return new Promise((resolve) => {
    const kept: Buffer[] = [];
    let size = 0;
    const done = () => {
      clearTimeout(timer);
      resolve(Buffer.concat(kept).toString("utf8").slice(0, keepBytes));
    };
    const timer = setTimeout(
      () => {
        res.destroy();
        done();
      },
      Math.max(0, deadline - Date.now()),
    );
    res.on("data", (chunk: Buffer) => {
      if (size < keepBytes) kept.push(chunk.subarray(0, keepBytes - size));
      size += chunk.length;
      if (size > maxBytes) {
        res.destroy();
        done();
      }
    });
    res.on("end", done);
    res.on("error", done);
    res.on("close", done);
  });
}
