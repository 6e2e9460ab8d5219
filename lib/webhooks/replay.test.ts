// Resends and replays: per-account limits and the cap on undelivered deliveries, on the embedded PGlite (testing/replay-suite.ts).
import { replaySuite } from "@/testing/replay-suite";

replaySuite("pglite", undefined);
