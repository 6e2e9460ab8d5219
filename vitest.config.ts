import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: ["{lib,db,emulators,app,testing}/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // `server-only` throws outside a React server bundle; tests import server modules directly.
    alias: { "server-only": fileURLToPath(new URL("./testing/server-only-stub.ts", import.meta.url)) },
  },
});
