// Finds the real Postgres and Redis that integration tests run against. Off CI, a missing server
// skips those suites with a note; on CI (CI=true) it fails them, so CI always covers both.
import { Socket } from "node:net";

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once("error", () => done(false));
    socket.connect(Number(port), hostname, () => done(true));
  });
}

async function find(name: string, url: string | undefined, fallback: string): Promise<string | undefined> {
  const candidate = url ?? fallback;
  if (await reachable(candidate)) return candidate;
  if (process.env.CI) throw new Error(`${name} is required on CI but ${candidate} is not reachable`);
  console.warn(`[tests] ${name} not reachable at ${candidate}: its integration tests are skipped`);
  return undefined;
}

export const testPostgresUrl = () =>
  find(
    "Postgres",
    process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL,
    "postgres://postgres@127.0.0.1:5432/test",
  );

/**
 * Each Vitest worker gets a Redis database of its own (1 to 15; database 0 stays the running
 * app's): files run side by side, and keys named by a fixed id (the demo sheet's locks and
 * pending writes, the one emulated service account's quota windows) must not meet.
 */
function workerDatabase(url: string): string {
  const pool = Number(process.env.VITEST_POOL_ID ?? 0);
  const parsed = new URL(url);
  if (!pool || (parsed.pathname && parsed.pathname !== "/")) return url;
  parsed.pathname = `/${((pool - 1) % 15) + 1}`;
  return parsed.toString();
}

// Read as the run starts: the test service clears REDIS_URL for the service under test.
const REDIS_URL = process.env.REDIS_URL || undefined;

export const testRedisUrl = async () => {
  const url = await find("Redis", REDIS_URL, "redis://127.0.0.1:6379");
  return url && workerDatabase(url);
};
