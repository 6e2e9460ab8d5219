// The ledger's three kinds of field read back from a sealed batch; a usage field as ledgers
// written before the other kinds existed still reads as usage; a field of no known kind is
// reported, not taken for usage.
import { describe, expect, it } from "vitest";
import { lastUsedField, readLedgerBatch, sheetStatField, usageField } from "./ledger-fields";

describe("ledger fields", () => {
  it("reads usage, sheet stats per sheet and day, and each key's latest use", () => {
    const at = Date.UTC(2026, 10, 29, 1, 2, 3, 456);
    const batch = readLedgerBatch({
      [usageField({ userId: "u1", sheetId: "s1", keyId: "k1", day: "2026-11-29", statusClass: "2xx" })]: 7,
      "u1\ts1\tk1\t2026-11-29\t4xx": 2,
      [sheetStatField("s1", "2026-11-29", "cacheHits")]: 5,
      [sheetStatField("s1", "2026-11-29", "googleCalls")]: 1,
      [sheetStatField("s2", "2026-11-28", "staleServed")]: 3,
      [lastUsedField("k1")]: at,
      "stats\ts1\t2026-11-29\tconstructor": 9,
      "future\tkind": 1,
    });
    expect(batch.usage).toEqual([
      { userId: "u1", sheetId: "s1", keyId: "k1", day: "2026-11-29", statusClass: "2xx", count: 7 },
      { userId: "u1", sheetId: "s1", keyId: "k1", day: "2026-11-29", statusClass: "4xx", count: 2 },
    ]);
    expect(batch.stats).toEqual([
      { sheetId: "s1", day: "2026-11-29", googleCalls: 1, cacheHits: 5, cacheMisses: 0, staleServed: 0 },
      { sheetId: "s2", day: "2026-11-28", googleCalls: 0, cacheHits: 0, cacheMisses: 0, staleServed: 3 },
    ]);
    expect(batch.lastUsed).toEqual([{ keyId: "k1", at: new Date(at) }]);
    expect(batch.unreadable).toEqual(["stats\ts1\t2026-11-29\tconstructor", "future\tkind"]);
  });
});
