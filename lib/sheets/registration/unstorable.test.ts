// A NUL from Google on the embedded PGlite (testing/nul-suite.ts).
import { nulSuite } from "@/testing/nul-suite";

nulSuite("pglite", undefined);
