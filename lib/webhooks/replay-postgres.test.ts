// Resends and replays: per-account limits and the cap on undelivered deliveries, on the real Postgres (testing/replay-suite.ts).
import { describe, it } from "vitest";
import { testPostgresUrl } from "@/testing/services";
import { replaySuite } from "@/testing/replay-suite";

const url = await testPostgresUrl();
if (url) replaySuite("postgres", url);
else describe.skip("webhook replays on postgres", () => it("needs Postgres", () => undefined));
