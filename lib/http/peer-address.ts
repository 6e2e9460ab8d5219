// The address of the peer that connected (the client, or the nearest proxy), for per-address
// allowances: a route handler never sees the socket, so lib/http/raw-requests.ts stamps it on
// every request before Next.js sees it (lib/http/hook-stamp.ts: a client cannot forge it).
import { isIPv6 } from "node:net";
import { hookStamp } from "./hook-stamp";

export const PEER_ADDRESS_HEADER = "x-sheetapi-peer-address";
const peerStamp = hookStamp(PEER_ADDRESS_HEADER);

/** The header's value for a connection from `address`. */
export function stampPeer(address: string): string {
  return peerStamp.stamp(address);
}

/** The address the hook stamped on the request; undefined when it did not (whatever a client sent). */
export function stampedPeer(value: string | null): string | undefined {
  return peerStamp.unstamp(value);
}

/**
 * The client an address stands for: an IPv6 address by its /64 (the block one subscriber gets,
 * so rotating addresses within it is one client), an IPv4-mapped one as its IPv4 address.
 */
export function visitorAddress(address: string): string {
  if (!isIPv6(address)) return address.slice(0, 64);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const [head = "", tail = ""] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::")
    ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
