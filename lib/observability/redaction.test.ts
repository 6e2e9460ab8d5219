// Log lines and Google's network errors carry no credential: a public read's URL holds `?key=`.
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const API_KEY = "AIzaSyRedactionTestKey0123456789abcdef";
const METRICS_TOKEN = "redaction-test-metrics-token-0123";
const REDIS_PASSWORD = "redaction-test-redis-password-0123";

beforeAll(async () => {
  vi.stubEnv("DATA_DIR", mkdtempSync(join(tmpdir(), "sheetapi-redaction-")));
  vi.stubEnv("GOOGLE_API_KEY", API_KEY);
  vi.stubEnv("METRICS_TOKEN", METRICS_TOKEN);
  vi.stubEnv("REDIS_URL", `redis://default:${REDIS_PASSWORD}@127.0.0.1:1/0`);
  // The process loads its configuration at start; the censor knows the secrets from then on.
  (await import("@/lib/env")).config();
});
afterAll(() => vi.unstubAllEnvs());
afterEach(async () => {
  const { log, setLogTarget } = await import("@/lib/log");
  setLogTarget(undefined);
  log.level = "silent";
});

it("censors configured secrets and credentials in query strings, keeping the rest", async () => {
  const { redactSecrets } = await import("./redaction");
  expect(redactSecrets(`GET https://sheets.googleapis.com/v4/spreadsheets/abc?fields=x&key=${API_KEY}`)).toBe(
    "GET https://sheets.googleapis.com/v4/spreadsheets/abc?fields=x&key=[redacted]",
  );
  expect(redactSecrets(`token ${METRICS_TOKEN} sent`)).toBe("token [redacted] sent");
  expect(redactSecrets(`AUTH default ${REDIS_PASSWORD}`)).toBe("AUTH default [redacted]");
  expect(redactSecrets("/cb?code=4/0Ab&state=s&access_token=ya29.x")).toBe(
    "/cb?code=[redacted]&state=s&access_token=[redacted]",
  );
  expect(redactSecrets("Authorization: Bearer abc.def")).toBe("Authorization: Bearer [redacted]");
  expect(redactSecrets("/v4/spreadsheets/abc?pageToken=1&monkey=2")).toBe("/v4/spreadsheets/abc?pageToken=1&monkey=2");
});

it("keeps the key out of a log line and out of Google's network error", async () => {
  const { log, setLogTarget } = await import("@/lib/log");
  const { readGoogleError } = await import("@/lib/google/errors");
  const lines: string[] = [];
  setLogTarget({ write: (line: string) => lines.push(line) });
  log.level = "info";
  const err = new Error(
    `request to http://127.0.0.1:1/v4/spreadsheets/abc?key=${API_KEY} failed, reason: connect ECONNREFUSED`,
  );
  log.warn({ reason: err.message, detail: `metrics ${METRICS_TOKEN}` }, "google: unreachable");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain("key=[redacted]");
  expect(lines[0]).not.toContain(API_KEY);
  expect(lines[0]).not.toContain(METRICS_TOKEN);
  expect(readGoogleError(err).message).toBe(
    "request to http://127.0.0.1:1/v4/spreadsheets/abc?key=[redacted] failed, reason: connect ECONNREFUSED",
  );
});
