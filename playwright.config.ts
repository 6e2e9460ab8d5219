// Playwright against `npm start` (a real `next start`), in Debian's chromium. The server runs on
// embedded defaults unless DATABASE_URL / UPSTASH_* are set, as on CI, where it uses the real ones.
import { defineConfig } from "@playwright/test";
import { CHROMIUM, E2E } from "./e2e/support/env";

// The billing instance's Stripe: emulators/stripe with the three paid plans' prices, delivering
// its events to that instance (retries after 1, 2 and 4 s).
const STRIPE = {
  STRIPE_SECRET_KEY: "sk_test_e2e",
  STRIPE_WEBHOOK_SECRET: "whsec_e2e",
  STRIPE_API_URL: E2E.stripeUrl,
  STRIPE_PRICE_STARTER: "price_starter_monthly",
  STRIPE_PRICE_PROFESSIONAL: "price_professional_monthly",
  STRIPE_PRICE_BUSINESS: "price_business_monthly",
};
const stripeEmulator = [
  "npx tsx emulators/stripe/main.ts",
  `--port ${E2E.stripePort} --key ${STRIPE.STRIPE_SECRET_KEY}`,
  "--price price_starter_monthly:Starter:900 --price price_professional_monthly:Professional:2900 --price price_business_monthly:Business:9900",
  `--webhook http://127.0.0.1:${E2E.billingPort}/api/stripe/webhook --webhook-secret ${STRIPE.STRIPE_WEBHOOK_SECRET} --retry-delays-ms 1000,2000,4000`,
].join(" ");

// Webhook receivers in the tests listen on loopback, which the service refuses unless allowed.
const UNGUARDED = {
  GOOGLE_QUOTA_PER_IDENTITY_MINUTE: "1000000",
  GOOGLE_QUOTA_PER_PROJECT_MINUTE: "1000000",
  WEBHOOK_ALLOWED_TARGETS: "127.0.0.1",
};

export default defineConfig({
  testDir: "./e2e",
  timeout: 30_000,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: E2E.baseUrl,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: CHROMIUM,
  },
  projects: [
    { name: "api", testDir: "./e2e/api" },
    { name: "pages", testDir: "./e2e/pages" },
    { name: "billing", testDir: "./e2e/billing", use: { baseURL: E2E.billingUrl } },
  ],
  webServer: [
    {
      command: `rm -rf ${E2E.dataDir} && npm start`,
      url: `http://127.0.0.1:${E2E.port}/health`,
      // A stale server from an earlier run must never answer for this one.
      reuseExistingServer: false,
      timeout: 420_000,
      stdout: "pipe",
      env: {
        PORT: String(E2E.port),
        DATA_DIR: E2E.dataDir,
        GOOGLE_EMULATOR_PORT: String(E2E.googlePort),
        APP_URL: E2E.baseUrl,
        // Tests register the emulator's sheets themselves, the demo sheet included.
        DEMO_MODE: "0",
        // emulators/google has no quota of its own; the suite makes far more Sheets calls a minute
        // through one service account than Google would allow (the guard has its own tests).
        ...UNGUARDED,
      },
    },
    {
      command: stripeEmulator,
      url: `${E2E.stripeUrl}/__admin/clock`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "pipe" as const,
    },
    {
      // Started once the first is up: it reuses the build and the Google emulator.
      command: `rm -rf ${E2E.dataDir}-billing && until curl -fs http://127.0.0.1:${E2E.port}/health >/dev/null; do sleep 1; done; npm start`,
      url: `http://127.0.0.1:${E2E.billingPort}/health`,
      reuseExistingServer: false,
      timeout: 480_000,
      stdout: "pipe" as const,
      env: {
        PORT: String(E2E.billingPort),
        DATA_DIR: `${E2E.dataDir}-billing`,
        GOOGLE_EMULATOR_PORT: String(E2E.googlePort),
        APP_URL: E2E.billingUrl,
        DEMO_MODE: "0",
        ...UNGUARDED,
        ...STRIPE,
      },
    },
    ...(E2E.secondUrl
      ? [
          {
            // Started once the first is up: it reuses the build, the migrations and the emulator.
            command: `until curl -fs http://127.0.0.1:${E2E.port}/health >/dev/null; do sleep 1; done; npm start`,
            url: `http://127.0.0.1:${E2E.secondPort}/health`,
            reuseExistingServer: false,
            timeout: 480_000,
            stdout: "pipe" as const,
            env: {
              PORT: String(E2E.secondPort),
              DATA_DIR: `${E2E.dataDir}-2`,
              GOOGLE_EMULATOR_PORT: String(E2E.googlePort),
              APP_URL: E2E.secondUrl,
              DEMO_MODE: "0",
              ...UNGUARDED,
            },
          },
        ]
      : []),
  ],
});
