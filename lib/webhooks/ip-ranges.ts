// Which addresses a webhook may reach, by range alone (target.ts adds the install's allowlist and
// is the only caller). How IPv6 forms carrying IPv4 are judged: README.md ("Reachable addresses").
import { BlockList, isIPv4, isIPv6 } from "node:net";

// The IANA IPv4 Special-Purpose Address Registry, its globally reachable anycast services too
// (AS112 192.31.196.0/24 and 192.175.48.0/24, AMT 192.52.193.0/24: no receiver lives there),
// the deprecated 6to4 relay anycast 192.88.99.0/24, multicast and 240.0.0.0/4.
const BLOCKED_V4 = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.31.196.0/24",
  "192.52.193.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "192.175.48.0/24",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
];

// Outside 2000::/3 nothing is global unicast, so all of it is refused: ::/8 (unspecified,
// loopback, IPv4-compatible ::/96, deprecated since RFC 4291 and a path into automatic tunnels
// rather than to a public host; SIIT ::ffff:0:0:0/96), 64:ff9b:1::/48 local-use NAT64 (RFC 8215:
// where its IPv4 part sits depends on the operator's prefix length, and it leads into that
// operator's network), 100::/64 discard and 100:0:0:1::/64 dummy, 5f00::/16 SRv6 SIDs,
// fc00::/7 unique-local, fe80::/10 link-local, fec0::/10 site-local and ff00::/8 multicast.
// Inside it, the IANA IPv6 Special-Purpose Address Registry's entries:
const BLOCKED_V6 = [
  // IETF protocol assignments: Teredo 2001::/32 (its IPv4 halves are a relay's and an obfuscated
  // client's, never a receiver's), benchmarking, ORCHID, PCP/TURN/AMT/AS112 anycast.
  "2001::/23",
  "2001:db8::/32", // documentation
  "3fff::/20", // documentation
  "2620:4f:8000::/48", // AS112 direct delegation (DNS sinks)
];
const GLOBAL_UNICAST = "2000::/3";
// IPv4 written as IPv6: mapped (the socket's own form) and the NAT64 well-known prefix (RFC 6052,
// which a DNS64 network answers for any IPv4-only name) carry it in the last 32 bits; 6to4 in
// bits 16-48. A private address behind them is as private as written plainly.
const MAPPED = "::ffff:0:0/96";
const NAT64 = "64:ff9b::/96";
const SIX_TO_FOUR = "2002::/16";

const ranges = (list: string[], family: "ipv4" | "ipv6") => {
  const b = new BlockList();
  for (const r of list) b.addSubnet(r.split("/")[0]!, Number(r.split("/")[1]), family);
  return b;
};
const blockedV4 = ranges(BLOCKED_V4, "ipv4");
const blockedV6 = ranges(BLOCKED_V6, "ipv6");
const globalUnicast = ranges([GLOBAL_UNICAST], "ipv6");
const mapped = ranges([MAPPED], "ipv6");
const nat64 = ranges([NAT64], "ipv6");
const sixToFour = ranges([SIX_TO_FOUR], "ipv6");

/** What the guard makes of an address: reachable, refused, or to be judged as the IPv4 address it carries. */
export type AddressClass = { kind: "public" } | { kind: "refused" } | { kind: "carries"; ipv4: string };

export function classifyAddress(address: string): AddressClass {
  if (isIPv4(address)) return { kind: blockedV4.check(address, "ipv4") ? "refused" : "public" };
  // A zone id (fe80::1%eth0) names a link of this machine: no public receiver has one.
  if (!isIPv6(address) || address.includes("%")) return { kind: "refused" };
  const groups = ipv6Groups(address);
  if (!groups) return { kind: "refused" };
  const v4 = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
  if (mapped.check(address, "ipv6") || nat64.check(address, "ipv6"))
    return { kind: "carries", ipv4: v4(groups[6]!, groups[7]!) };
  if (sixToFour.check(address, "ipv6")) return { kind: "carries", ipv4: v4(groups[1]!, groups[2]!) };
  if (!globalUnicast.check(address, "ipv6") || blockedV6.check(address, "ipv6")) return { kind: "refused" };
  return { kind: "public" };
}

/** The eight 16-bit groups of an IPv6 address in any form isIPv6 accepts (compressed, dotted tail, padded). */
export function ipv6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail, extra] = text.split("::");
  if (extra !== undefined) return undefined;
  const part = (s: string | undefined) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  const [left, right] = [part(head), part(tail)];
  const fill = tail === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array<number>(Math.max(0, fill)).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}
