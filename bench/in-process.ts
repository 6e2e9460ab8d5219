// The service's own modules in the benchmark's process (route handlers called directly, no HTTP
// server in front) against emulators/google on a free port, a fresh PGlite and the in-process
// limit store: for benchmarks about Google's side and the cache, which do not depend on the
// server. Call before importing modules that read the configuration.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GoogleEmulatorOptions } from "@/emulators/google/server";

export async function inProcessService(
  name: string,
  { env = {}, google: googleOptions = {} }: { env?: Record<string, string>; google?: GoogleEmulatorOptions } = {},
) {
  const { startGoogleEmulator } = await import("@/emulators/google/server");
  const google = await startGoogleEmulator(googleOptions);
  Object.assign(process.env, {
    DATA_DIR: mkdtempSync(join(tmpdir(), `sheetapi-${name}-`)),
    GOOGLE_API_ROOT_URL: google.url,
    DATABASE_URL: "",
    UPSTASH_REDIS_REST_URL: "",
    NODE_ENV: "development",
    ...env,
  });
  const { loadConfig } = await import("@/lib/env");
  const { uploadServiceAccountKey } = await import("@/testing/google");
  await uploadServiceAccountKey(google.url, loadConfig().google.serviceAccount);
  const { setDatabase } = await import("@/db/client");
  const { freshPglite } = await import("@/testing/databases");
  const db = await freshPglite();
  setDatabase(db);
  return {
    google,
    db,
    async stop() {
      await db.close();
      await google.stop();
    },
  };
}
