// The service's own modules wired to test doubles and real stores: emulators/google on a free
// port, a fresh migrated database (PGlite, or the real Postgres with `on: "postgres"`) and a
// throwaway DATA_DIR. Call before importing modules that read the configuration.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { vi } from "vitest";
import { setDatabase, type DatabaseHandle } from "@/db/client";
import { startGoogleEmulator, type GoogleEmulator } from "@/emulators/google/server";
import { loadConfig } from "@/lib/env";
import { freshPglite, freshPostgres } from "./databases";
import { uploadServiceAccountKey } from "./google";

export interface TestService {
  google: GoogleEmulator;
  db: DatabaseHandle;
  /** Calls the emulator's admin API. */
  admin(path: string, body?: unknown, method?: string): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

/**
 * `modifiedTimeLagMs`: how long Drive's modifiedTime lags edits. The emulator's default is the
 * realistic one (about 3 minutes); suites about what the service does when Drive reports an edit
 * early set 0.
 */
export async function startTestService(
  options: { postgresUrl?: string; env?: Record<string, string>; modifiedTimeLagMs?: number } = {},
): Promise<TestService> {
  const google = await startGoogleEmulator({ modifiedTimeLagMs: options.modifiedTimeLagMs });
  vi.stubEnv("DATA_DIR", mkdtempSync(join(tmpdir(), "sheetapi-test-")));
  vi.stubEnv("GOOGLE_API_ROOT_URL", google.url);
  vi.stubEnv("DATABASE_URL", "");
  vi.stubEnv("UPSTASH_REDIS_REST_URL", "");
  vi.stubEnv("UPSTASH_REDIS_REST_TOKEN", "");
  // The tests' own Redis (testing/services.ts) is not the service's store unless a test says so.
  vi.stubEnv("REDIS_URL", "");
  // emulators/google has no quota; the guard's own tests set theirs (the Redis store is shared
  // by every test file, so a real-sized quota would be spent across files).
  vi.stubEnv("GOOGLE_QUOTA_PER_IDENTITY_MINUTE", "1000000");
  vi.stubEnv("GOOGLE_QUOTA_PER_PROJECT_MINUTE", "1000000");
  for (const [k, v] of Object.entries(options.env ?? {})) vi.stubEnv(k, v);
  const db = options.postgresUrl ? await freshPostgres(options.postgresUrl) : await freshPglite();
  setDatabase(db);
  // The service account's key (generated into DATA_DIR) is known to the emulator, as to Google.
  await uploadServiceAccountKey(google.url, loadConfig().google.serviceAccount);
  return {
    google,
    db,
    async admin(path, body, method = body === undefined ? "GET" : "POST") {
      const res = await fetch(`${google.url}/__admin${path}`, {
        method,
        headers: { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as Record<string, unknown>;
    },
    async stop() {
      await db.close();
      await google.stop();
      vi.unstubAllEnvs();
    },
  };
}
