// Where the e2e server runs and what it was started with.
// A second instance shares the database and limit store only when both are real servers.
const shared = Boolean(process.env.DATABASE_URL && process.env.UPSTASH_REDIS_REST_URL);

export const E2E = {
  port: 3210,
  googlePort: 4210,
  // "localhost", not 127.0.0.1: Next.js names every loopback host localhost in its URLs.
  baseUrl: "http://localhost:3210",
  googleUrl: "http://127.0.0.1:4210",
  dataDir: ".data/e2e",
  /** Base URL of a second `next start` on the same Postgres and Redis, when there can be one. */
  secondUrl: shared ? "http://localhost:3211" : undefined,
  demoSheetId: "1AcmeStoreDemoSpreadsheet0000000000000000001",
  privateSheetId: "1PrivateOwnerSpreadsheet00000000000000000003",
};
