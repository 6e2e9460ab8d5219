import { describe, expect, it } from "vitest";
import { momentText } from "./moment-text";

const at = "2026-11-27T23:05:09.400Z";

describe("moments as pages write them", () => {
  it("keep the UTC text the pages have always shown", () => {
    expect(momentText(at, "minute")).toBe("2026-11-27 23:05 UTC");
    expect(momentText(at, "second")).toBe("2026-11-27 23:05:09 UTC");
    expect(momentText(at, "clock")).toBe("23:05 UTC");
    expect(momentText(at, "clock-seconds")).toBe("23:05:09 UTC");
    expect(momentText(at, "day")).toBe("2026-11-27");
    expect(momentText(Date.parse(at), "minute", "Etc/UTC")).toBe("2026-11-27 23:05 UTC");
  });

  it("write the reader's zone, with its own date where the day differs", () => {
    expect(momentText(at, "minute", "Asia/Tokyo")).toBe("2026-11-28 08:05 GMT+9");
    expect(momentText(at, "minute", "America/New_York")).toBe("2026-11-27 18:05 EST");
    expect(momentText("2026-07-01T00:30:00Z", "clock", "America/New_York")).toBe("20:30 EDT");
    expect(momentText(at, "day", "Asia/Tokyo")).toBe("2026-11-28");
    // Midnight is 00, never 24.
    expect(momentText("2026-11-27T00:00:00Z", "clock", "UTC")).toBe("00:00 UTC");
  });

  it("fall back to UTC for a zone the runtime does not know, and say when there is no moment", () => {
    expect(momentText(at, "minute", "Mars/Olympus_Mons")).toBe("2026-11-27 23:05 UTC");
    expect(momentText("not a date", "minute")).toBe("unknown");
  });
});
