// Where the e2e server runs and what it was started with.
// A second instance shares the database and limit store only when both are real servers.
const shared = Boolean(process.env.DATABASE_URL && process.env.UPSTASH_REDIS_REST_URL);

// E2E_PORT moves the whole set (app, second app = +1, Google emulator = +1000), so two checkouts
// can run their suites side by side.
const port = Number(process.env.E2E_PORT ?? 3210);

export const E2E = {
  port,
  secondPort: port + 1,
  googlePort: port + 1000,
  // "localhost", not 127.0.0.1: Next.js names every loopback host localhost in its URLs.
  baseUrl: `http://localhost:${port}`,
  googleUrl: `http://127.0.0.1:${port + 1000}`,
  dataDir: ".data/e2e",
  /** Base URL of a second `next start` on the same Postgres and Redis, when there can be one. */
  secondUrl: shared ? `http://localhost:${port + 1}` : undefined,
  /** An instance that takes payment through emulators/stripe (its own data directory, the same Google emulator). */
  billingPort: port + 2,
  billingUrl: `http://localhost:${port + 2}`,
  stripePort: port + 3,
  stripeUrl: `http://127.0.0.1:${port + 3}`,
  demoSheetId: "1AcmeStoreDemoSpreadsheet0000000000000000001",
  privateSheetId: "1PrivateOwnerSpreadsheet00000000000000000003",
};

/** Debian's chromium, launched with the flags this machine needs (no sandbox, no GPU, nothing fetched). */
export const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};
