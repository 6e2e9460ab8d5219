// A browser key's per-visitor limit counts an IPv6 subscriber's /64 as one visitor.
import { describe, expect, it } from "vitest";
import { visitorAddress } from "./peer-address";

describe("visitorAddress", () => {
  it("keeps IPv4 addresses and reads IPv4-mapped IPv6 as IPv4", () => {
    expect(visitorAddress("203.0.113.5")).toBe("203.0.113.5");
    expect(visitorAddress("::ffff:203.0.113.5")).toBe("203.0.113.5");
  });

  it("counts every address of an IPv6 /64 as one visitor, however it is written", () => {
    const one = visitorAddress("2001:db8:0:1:aaaa:bbbb:cccc:dddd");
    expect(one).toBe("2001:db8:0:1::/64");
    expect(visitorAddress("2001:0DB8:0000:0001::1")).toBe(one);
    expect(visitorAddress("2001:db8:0:1::")).toBe(one);
    expect(visitorAddress("2001:db8:0:2::1")).not.toBe(one);
    expect(visitorAddress("2001:db8::")).toBe("2001:db8:0:0::/64");
  });

  it("leaves what is not an address as it is, bounded", () => {
    expect(visitorAddress("any address (no trusted proxy)")).toBe("any address (no trusted proxy)");
    expect(visitorAddress("x".repeat(100))).toHaveLength(64);
  });
});
