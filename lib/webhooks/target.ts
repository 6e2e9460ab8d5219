// Webhook targets are checked against SSRF: only http(s), no credentials in the URL, and no
// loopback, link-local (cloud metadata at 169.254.169.254), private, unique-local, multicast or
// otherwise reserved address (ip-ranges.ts, IPv6 forms that carry an IPv4 address included),
// checked on the addresses a name resolves to at connection time (the connection uses the very
// address checked, so a name cannot resolve twice differently) and again for every redirect. WEBHOOK_ALLOWED_TARGETS lets a self-hosted install (and tests)
// reach named hosts or ranges anyway. On embedded defaults (someone trying SheetAPI on their own
// machine) this machine's own receivers are allowed too: localhost and loopback only, never the
// private network or cloud metadata; a deployment keeps every rule above.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP } from "node:net";
import { config } from "@/lib/env";
import { classifyAddress } from "./ip-ranges";

export class TargetRefused extends Error {}

interface Allowed {
  hosts: Set<string>;
  ranges: BlockList;
}

/** This machine, for embedded defaults: the loopback ranges and the name that means them. */
const THIS_MACHINE = "localhost,127.0.0.0/8,::1";

let allowedCache: { source: string; allowed: Allowed } | undefined;
function allowed(): Allowed {
  const cfg = config();
  const source = [cfg.env.WEBHOOK_ALLOWED_TARGETS, cfg.embedded ? THIS_MACHINE : ""].filter(Boolean).join(",");
  if (allowedCache?.source === source) return allowedCache.allowed;
  const hosts = new Set<string>();
  const ranges = new BlockList();
  for (const entry of source.split(",").map((e) => e.trim().toLowerCase()).filter(Boolean)) {
    const [address, bits] = entry.split("/");
    const family = isIP(address!);
    if (family && bits) ranges.addSubnet(address!, Number(bits), family === 4 ? "ipv4" : "ipv6");
    else if (family) ranges.addAddress(address!, family === 4 ? "ipv4" : "ipv6");
    else hosts.add(entry);
  }
  allowedCache = { source, allowed: { hosts, ranges } };
  return allowedCache.allowed;
}

/** Whether a resolved address may be reached. */
export function addressAllowed(address: string): boolean {
  const family = isIP(address) === 6 ? "ipv6" : "ipv4";
  if (allowed().ranges.check(address, family)) return true;
  const found = classifyAddress(address);
  // ::ffff:10.0.0.1, 64:ff9b::a00:1 or 2002:a00:1:: is judged (allowlist included) as 10.0.0.1.
  return found.kind === "carries" ? addressAllowed(found.ipv4) : found.kind === "public";
}

const REFUSED = "a loopback, link-local, private or reserved address";

/**
 * What follows a refusal: on a local install (Google emulated, someone trying SheetAPI on their
 * own machine), how to let a receiver in; a hosted service's customers cannot set it. On embedded
 * defaults this machine is already allowed: only other hosts of the network need the setting.
 */
export function localTargetsHint(): string {
  const cfg = config();
  if (cfg.embedded) return " Receivers on this machine (localhost, 127.0.0.1) are allowed here; for another host of your network, start SheetAPI with WEBHOOK_ALLOWED_TARGETS set to it.";
  return cfg.google.emulated ? " To receive webhooks on this machine, start SheetAPI with WEBHOOK_ALLOWED_TARGETS=127.0.0.1 (or the host, address or range to allow)." : "";
}
/**
 * What a webhook URL may be, in a sentence for the owner. The targets an operator allowed are
 * named only on a local install: on a hosted service they are its internal hosts, which
 * customers' webhooks could reach and should not learn of.
 */
export function acceptedTargetsText(): string {
  const cfg = config();
  const operator = cfg.google.emulated ? cfg.env.WEBHOOK_ALLOWED_TARGETS.split(",").map((t) => t.trim()).filter(Boolean).join(", ") : "";
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
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new TargetRefused("Only http and https URLs can receive webhooks.");
  if (url.username || url.password) throw new TargetRefused("The URL must not carry credentials; authenticate the webhook by its signature instead.");
  if (raw.length > 2000) throw new TargetRefused("The URL is longer than 2,000 characters.");
  const host = bareHost(url);
  if (isIP(host) && !allowed().hosts.has(host) && !addressAllowed(host)) throw new TargetRefused(`${named(host)} is ${REFUSED}.${localTargetsHint()}`);
  return url;
}

/** DNS resolution that refuses private addresses: used for the connection itself. */
function guardedLookup(hostname: string, options: { all?: boolean; family?: number }, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void): void {
  dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as LookupAddress[];
    const refused = list.find((a) => !addressAllowed(a.address));
    if (refused || !list.length) return callback(new TargetRefused(refused ? `${hostname} resolves to ${named(refused.address)}, ${REFUSED}.${localTargetsHint()}` : `${hostname} resolves to nothing.`), []);
    if (options.all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
}

/** Checks a URL before it is saved: its shape and what its name resolves to now. */
export async function checkTarget(raw: string): Promise<URL> {
  const url = checkTargetUrl(raw);
  const host = bareHost(url);
  if (isIP(host) || allowed().hosts.has(host)) return url;
  await new Promise<void>((resolve, reject) =>
    guardedLookup(host, { all: true }, (err) => (err ? reject(err instanceof TargetRefused ? err : new TargetRefused(`${host} cannot be resolved.`)) : resolve())),
  );
  return url;
}

export interface PostResult {
  status: number;
  /** The start of the answer (up to `keepBytes`). */
  body: string;
}

const MAX_REDIRECTS = 3;

/**
 * POSTs `body` to the URL within `timeoutMs` in all (redirects included), reading at most
 * `maxBytes` of the answer. A redirect is followed (method and body kept) only to a target that
 * passes the same checks. Throws TargetRefused or a network error.
 */
export async function guardedPost(raw: string, headers: Record<string, string>, body: string, { timeoutMs = config().env.WEBHOOK_TIMEOUT_MS, maxBytes = 64 * 1024, keepBytes = 2048 } = {}): Promise<PostResult> {
  const deadline = Date.now() + timeoutMs;
  let target = raw;
  for (let hop = 0; ; hop++) {
    const url = checkTargetUrl(target);
    const res = await postOnce(url, headers, body, deadline);
    const location = res.headers.location;
    if ([301, 302, 303, 307, 308].includes(res.statusCode ?? 0) && location) {
      res.resume();
      if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
      target = new URL(location, url).toString();
      continue;
    }
    return { status: res.statusCode ?? 0, body: await readBounded(res, maxBytes, keepBytes, deadline) };
  }
}

function postOnce(url: URL, headers: Record<string, string>, body: string, deadline: number): Promise<IncomingMessage> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) return Promise.reject(new Error("timed out"));
  const host = bareHost(url);
  const trusted = allowed().hosts.has(host);
  return new Promise((resolve, reject) => {
    const req = (url.protocol === "https:" ? httpsRequest : httpRequest)(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        ...(trusted ? {} : { lookup: guardedLookup as never }),
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
    const timer = setTimeout(() => {
      res.destroy();
      done();
    }, Math.max(0, deadline - Date.now()));
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
