// The plain Redis store's connection (the store suites in store.test.ts check its answers): each
// call is one attempt within LIMIT_STORE_TIMEOUT_MS (DECISIONS 18a), also when Redis accepts the
// connection and never answers, and a call that failed while Redis was down is never sent later.
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { redisProcess } from "@/testing/redis-process";
import { redisConnection, redisStore, type RedisConnection } from "./redis-store";

const TIMEOUT_MS = 300;
const redis = await redisProcess();
const connections: RedisConnection[] = [];
const open = (url: string) => {
  const connection = redisConnection({ url, timeoutMs: TIMEOUT_MS });
  connections.push(connection);
  return connection;
};
afterAll(async () => {
  await Promise.all(connections.map((c) => c.close().catch(() => undefined)));
  await redis?.stop();
});

const timed = async (call: () => Promise<unknown>): Promise<{ value?: unknown; error?: string; ms: number }> => {
  const started = Date.now();
  const outcome = await call().then(
    (value) => ({ value }),
    (err: Error) => ({ error: err.message }),
  );
  return { ...outcome, ms: Date.now() - started };
};

describe("the Redis store's connection", () => {
  it("gives up within the timeout when Redis takes the connection and never answers", async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    const store = redisStore(open(`redis://127.0.0.1:${port}`));
    for (const call of [() => store.ping(), () => store.incr("k", 60)]) {
      const result = await timed(call);
      expect(result.error).toBe(`The limit store did not answer within ${TIMEOUT_MS} ms.`);
      expect(result.ms).toBeLessThan(TIMEOUT_MS + 250);
    }
    for (const socket of sockets) socket.destroy();
    silent.close();
  });

  it.skipIf(!redis)(
    "fails a call at once while Redis is down, never sends it later, and works again once Redis is back",
    async () => {
      const connection = open(redis!.url);
      const store = redisStore(connection);
      const key = `test:redis-store:${process.pid}:${Date.now()}`;
      expect(await store.incr(key, 60)).toBe(1);
      await redis!.stop();
      // The client has seen the connection close and is reconnecting: the call waits for it, then gives up.
      while (connection.client.isReady) await new Promise((r) => setTimeout(r, 20));
      const during = await timed(() => store.incr(key, 60));
      expect(during.error).toBeDefined();
      expect(during.ms).toBeLessThan(TIMEOUT_MS + 250);
      await redis!.start();
      let after = await timed(() => store.incr(key, 60));
      for (let i = 0; i < 20 && after.error; i++) {
        await new Promise((r) => setTimeout(r, 100));
        after = await timed(() => store.incr(key, 60));
      }
      // A fresh Redis (nothing saved): the one incr that reached it counts 1; the failed one never arrived.
      expect(after.value).toBe(1);
    },
  );
});
