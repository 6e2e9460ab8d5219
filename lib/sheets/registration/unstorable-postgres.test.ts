// A NUL from Google on the real Postgres (testing/nul-suite.ts).
import { describe, it } from "vitest";
import { testPostgresUrl } from "@/testing/services";
import { nulSuite } from "@/testing/nul-suite";

const url = await testPostgresUrl();
if (url) nulSuite("postgres", url);
else describe.skip("a NUL from Google on postgres", () => it("needs Postgres", () => undefined));
