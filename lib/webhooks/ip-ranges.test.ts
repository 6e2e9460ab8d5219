// Address ranges a webhook may not reach, in every textual form an address can take.
import { describe, expect, it } from "vitest";
import { classifyAddress, ipv6Groups } from "./ip-ranges";

const kind = (address: string) => classifyAddress(address).kind;
const carried = (address: string) => {
  const found = classifyAddress(address);
  return found.kind === "carries" ? found.ipv4 : found.kind;
};

describe("ipv6Groups", () => {
  it("reads compressed, padded, upper-case and dotted forms alike", () => {
    const loopback4 = [0, 0, 0, 0, 0, 0, 0x7f00, 1];
    for (const text of [
      "::7f00:1",
      "::7F00:0001",
      "0:0:0:0:0:0:7f00:1",
      "0000:0000:0000:0000:0000:0000:7f00:0001",
      "::127.0.0.1",
      "0::0:127.0.0.1",
    ])
      expect(ipv6Groups(text), text).toEqual(loopback4);
    expect(ipv6Groups("::")).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Groups("2002:a00:1::")).toEqual([0x2002, 0xa00, 1, 0, 0, 0, 0, 0]);
  });
});

describe("classifyAddress", () => {
  it("refuses IPv4-compatible addresses outright, whatever IPv4 address they carry", () => {
    for (const a of [
      "::7f00:1",
      "::127.0.0.1",
      "::7F00:0001",
      "0:0:0:0:0:0:7f00:1",
      "::a00:1",
      "::8.8.8.8",
      "::808:808",
    ])
      expect(kind(a), a).toBe("refused");
  });

  it("judges the NAT64 well-known prefix by the IPv4 address in its last 32 bits", () => {
    expect(carried("64:ff9b::7f00:1")).toBe("127.0.0.1");
    expect(carried("64:FF9B::10.0.0.1")).toBe("10.0.0.1");
    expect(carried("0064:ff9b:0000:0000:0000:0000:a9fe:a9fe")).toBe("169.254.169.254");
    expect(carried("64:ff9b::808:808")).toBe("8.8.8.8");
  });

  it("refuses local-use NAT64 (64:ff9b:1::/48) outright", () => {
    for (const a of [
      "64:ff9b:1::a00:1",
      "64:ff9b:1::808:808",
      "64:FF9B:0001:ffff::1",
      "0064:ff9b:0001:0000:0000:0000:0808:0808",
    ])
      expect(kind(a), a).toBe("refused");
  });

  it("judges 6to4 (2002::/16) by the IPv4 address in bits 16-48", () => {
    expect(carried("2002:a00:1::")).toBe("10.0.0.1");
    expect(carried("2002:0A00:0001::1")).toBe("10.0.0.1");
    expect(carried("2002:7f00:1:0:0:0:0:1")).toBe("127.0.0.1");
    expect(carried("2002:c0a8:101:1::5")).toBe("192.168.1.1");
    expect(carried("2002:808:808::1")).toBe("8.8.8.8");
  });

  it("judges IPv4-mapped addresses by their IPv4 address", () => {
    expect(carried("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(carried("::FFFF:7F00:0001")).toBe("127.0.0.1");
    expect(carried("0:0:0:0:0:ffff:a00:1")).toBe("10.0.0.1");
  });

  it("refuses Teredo and the other IETF protocol assignments (2001::/23)", () => {
    for (const a of [
      "2001::1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
      "2001:0000:4136:E378::",
      "2001:1::1",
      "2001:2::5",
      "2001:3::1",
      "2001:4:112::1",
      "2001:20::1",
      "2001:1ff::1",
    ])
      expect(kind(a), a).toBe("refused");
    expect(kind("2001:200::1")).toBe("public"); // just past the /23: a regional registry's space
  });

  it("refuses the other special-purpose and non-unicast ranges", () => {
    for (const a of [
      "::",
      "::1",
      "0::1", // unspecified, loopback
      "::ffff:0:a00:1", // SIIT
      "100::1",
      "100:0:0:0:ffff::1",
      "100:0:0:1::1", // discard, dummy
      "2001:db8::1",
      "2001:DB8:0:0::1", // documentation
      "3fff::1",
      "3FFF:0FFF:ffff::1", // documentation (RFC 9637)
      "5f00::1",
      "5F00:1:2::3", // SRv6 SIDs
      "2620:4f:8000::1", // AS112
      "fc00::1",
      "fd12:3456::1",
      "FE80::1",
      "fec0::1", // unique-local, link-local, site-local
      "ff02::1",
      "FF0E::101", // multicast
      "4000::1",
      "e000::1", // not allocated for unicast
    ])
      expect(kind(a), a).toBe("refused");
    expect(kind("3fff:1000::1")).toBe("public"); // past the documentation /20
  });

  it("refuses any address with a zone id, which names a link of this machine", () => {
    for (const a of ["fe80::1%eth0", "::7f00:1%eth0", "2606:4700::1111%1", "64:ff9b::808:808%lo"])
      expect(kind(a), a).toBe("refused");
  });

  it("accepts global unicast and public IPv4", () => {
    for (const a of [
      "2606:4700::1111",
      "2A00:1450:4001:80B::200E",
      "2606:4700:0000:0000:0000:0000:0000:1111",
      "93.184.216.34",
      "8.8.8.8",
    ])
      expect(kind(a), a).toBe("public");
    for (const a of [
      "10.0.0.1",
      "192.88.99.1",
      "192.31.196.1",
      "192.52.193.1",
      "192.175.48.1",
      "169.254.169.254",
      "255.255.255.255",
    ])
      expect(kind(a), a).toBe("refused");
  });

  it("refuses what is no address at all", () => {
    for (const a of ["", "localhost", "1::2::3", "::00001", "[::1]"]) expect(kind(a), a).toBe("refused");
  });
});
