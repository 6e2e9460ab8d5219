// The limit store on a Redis of one's own (REDIS_URL): scripted-store.ts's commands over one
// connection with the official client. Calls made while others are under way go out together on
// the socket (the client pipelines them): each costs one round trip, and many share one.
import { createClient } from "redis";
import { log } from "@/lib/log";
import { scriptedStore } from "./scripted-store";
import type { LimitStore } from "./store-types";

export interface RedisTarget {
  url: string;
  /** Each call is abandoned after this long (DECISIONS 18a: one bounded attempt). */
  timeoutMs: number;
}

export type RedisConnection = ReturnType<typeof redisConnection>;

/** The address as logs may show it: never its password. */
export const redactedUrl = (url: string) => url.replace(/\/\/[^@/]*@/, "//***@");

export function redisConnection({ url, timeoutMs }: RedisTarget) {
  const client = createClient({
    url,
    // While the connection is down a call fails at once rather than waiting to be sent later:
    // a call is tried once, within its time (DECISIONS 18a), and never goes out after its caller gave up.
    disableOfflineQueue: true,
    socket: { connectTimeout: timeoutMs },
  });
  let down = false;
  // The client reconnects on its own and reports each failed attempt: one line per outage.
  client.on("error", (err: Error) => {
    if (!down)
      log.warn({ store: redactedUrl(url), reason: err.message }, "limit store: Redis unreachable; reconnecting");
    down = true;
  });
  client.on("ready", () => {
    if (down) log.info({ store: redactedUrl(url) }, "limit store: Redis reachable again");
    down = false;
  });
  // The connection never keeps a process alive that has nothing else to do (a CLI, a test).
  client.unref();
  let connecting: Promise<unknown> | undefined;
  // One listener however many calls wait (an outage under load).
  let whenReady: Promise<void> | undefined;
  const ready = (): Promise<void> => {
    if (client.isReady) return Promise.resolve();
    if (!client.isOpen) connecting ??= client.connect().catch(() => (connecting = undefined));
    return (whenReady ??= new Promise((resolve) =>
      client.once("ready", () => {
        whenReady = undefined;
        resolve();
      }),
    ));
  };
  /** One call within the time: waits for the connection, then sends, unless the time is up by then. */
  const bounded = <T>(send: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        reject(new Error(`The limit store did not answer within ${timeoutMs} ms.`));
      }, timeoutMs);
      ready()
        .then(() => {
          if (late) return;
          return send().then(resolve, reject);
        })
        .finally(() => clearTimeout(timer));
    });
  return { client, bounded, close: () => (client.isOpen ? client.close() : Promise.resolve()) };
}

export function redisStore(connection: RedisConnection): LimitStore {
  const { client, bounded } = connection;
  return scriptedStore("redis", {
    evalsha: (sha, keys, args) => bounded(() => client.evalSha(sha, { keys, arguments: args })),
    eval: (script, keys, args) => bounded(() => client.eval(script, { keys, arguments: args })),
    ping: async () => {
      await bounded(() => client.ping());
    },
    mget: (keys) => bounded(() => client.mGet(keys)),
    del: async (key) => {
      await bounded(() => client.del(key));
    },
    setNx: async (key, value, ttlMs) =>
      (await bounded(() => client.set(key, value, { condition: "NX", expiration: { type: "PX", value: ttlMs } }))) ===
      "OK",
    setEx: async (key, value, ttlSeconds) => {
      await bounded(() => client.set(key, value, { expiration: { type: "EX", value: ttlSeconds } }));
    },
    hsetExpire: async (key, field, value, ttlSeconds) => {
      await bounded(() => client.multi().hSet(key, field, value).expire(key, ttlSeconds).exec());
    },
    hdel: async (key, field) => {
      await bounded(() => client.hDel(key, field));
    },
    sremDel: async (set, member, key) => {
      await bounded(() => client.multi().sRem(set, member).del(key).exec());
    },
  });
}
