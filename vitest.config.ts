import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: ["{lib,db,emulators,app,testing}/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    // Most suites spend their time waiting (Google answering late on purpose, re-check intervals,
    // servers starting), not computing: three files side by side on a two-core machine halve the
    // run (Vitest's default on two cores is one at a time). Each file starts its own services on
    // free ports and its own databases, so files do not meet.
    maxWorkers: 3,
    hookTimeout: 60_000,
    // `server-only` throws outside a React server bundle; tests import server modules directly.
    alias: { "server-only": fileURLToPath(new URL("./testing/server-only-stub.ts", import.meta.url)) },
  },
});
