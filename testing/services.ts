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
  find("Postgres", process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL, "postgres://postgres@127.0.0.1:5432/test");

export const testRedisUrl = () => find("Redis", process.env.REDIS_URL, "redis://127.0.0.1:6379");
