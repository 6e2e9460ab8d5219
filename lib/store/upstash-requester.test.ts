// The Upstash client the service uses (node:http instead of fetch) against servers that
// misbehave as real networks do, and against emulators/upstash over the real Redis.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startUpstashEmulator, type UpstashEmulator } from "@/emulators/upstash/server";
import { testRedisUrl } from "@/testing/services";
import { upstashStore } from "./upstash-store";
import { errors } from "@upstash/redis";
import { upstashRedis, upstashRequester } from "./upstash-requester";

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
const servers: Server[] = [];

async function serve(handler: Handler): Promise<string> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => handler(req, body, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const answer = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(value));
};

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

describe("upstashRequester", () => {
  it("posts the command as JSON with the token to the base URL plus the path, and returns the answer", async () => {
    const seen: { path?: string; auth?: string; body: string }[] = [];
    const url = await serve((req, body, res) => {
      seen.push({ path: req.url, auth: req.headers.authorization, body });
      answer(res, 200, req.url === "/base/pipeline" ? [{ result: "a" }, { result: 2 }] : { result: "PONG" });
    });
    const requester = upstashRequester({ url: `${url}/base/`, token: "secret", timeoutMs: 1000 });
    expect(await requester.request({ body: ["ping"] })).toEqual({ result: "PONG" });
    expect(
      await requester.request({
        path: ["pipeline"],
        body: [
          ["get", "x"],
          ["incr", "y"],
        ],
      }),
    ).toEqual([{ result: "a" }, { result: 2 }]);
    expect(seen).toEqual([
      { path: "/base", auth: "Bearer secret", body: '["ping"]' },
      { path: "/base/pipeline", auth: "Bearer secret", body: '[["get","x"],["incr","y"]]' },
    ]);
  });

  it("throws Redis's message with the command's name, never its arguments (stored records)", async () => {
    const url = await serve((_req, _body, res) =>
      answer(res, 400, { error: "NOSCRIPT No matching script. Please use EVAL." }),
    );
    const redis = upstashRedis({ url, token: "t", timeoutMs: 1000 });
    const err = await redis
      .evalsha("0".repeat(40), ["k"], ['{"refreshTokenCiphertext":"v1.x"}'])
      .catch((e: unknown) => e as Error);
    expect((err as Error).message).toBe("NOSCRIPT No matching script. Please use EVAL., command was: evalsha");
  });

  it("fails with the client's parse error when a proxy answers HTML", async () => {
    const url = await serve((_req, _body, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html>Bad gateway</html>");
    });
    await expect(
      upstashRequester({ url, token: "t", timeoutMs: 1000 }).request({ body: ["ping"] }),
    ).rejects.toBeInstanceOf(errors.UpstashJSONParseError);
  });

  it("fails at once, without a second attempt, when nothing listens", async () => {
    const url = await serve(() => undefined);
    for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
    const started = Date.now();
    await expect(upstashRequester({ url, token: "t", timeoutMs: 2000 }).request({ body: ["ping"] })).rejects.toThrow(
      /ECONNREFUSED/,
    );
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("gives up after the timeout, once, when the store does not answer", async () => {
    let calls = 0;
    const url = await serve(() => calls++);
    const started = Date.now();
    await expect(
      upstashRequester({ url, token: "t", timeoutMs: 150 }).request({ body: ["incr", "x"] }),
    ).rejects.toThrow(/did not answer within 150 ms/);
    expect(Date.now() - started).toBeLessThan(1000);
    await new Promise((r) => setTimeout(r, 200));
    expect(calls).toBe(1);
  });

  it("gives up after the timeout, once, when an answer starts and stalls", async () => {
    let calls = 0;
    const url = await serve((_req, _body, res) => {
      calls++;
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"result":');
    });
    const started = Date.now();
    await expect(
      upstashRequester({ url, token: "t", timeoutMs: 150 }).request({ body: ["incr", "x"] }),
    ).rejects.toThrow(/did not answer within 150 ms|closed the connection/);
    expect(Date.now() - started).toBeLessThan(1000);
    await new Promise((r) => setTimeout(r, 200));
    expect(calls).toBe(1);
  });

  it("reports a connection reset on a kept-alive socket and never sends the call again (it may have run)", async () => {
    const served = new WeakSet<object>();
    let received = 0;
    const url = await serve((req, _body, res) => {
      received++;
      // The second call on the connection arrives, and the connection is reset before an answer.
      if (served.has(req.socket)) return req.socket.resetAndDestroy();
      served.add(req.socket);
      answer(res, 200, { result: received });
    });
    const requester = upstashRequester({ url, token: "t", timeoutMs: 2000 });
    expect(await requester.request({ body: ["incr", "x"] })).toEqual({ result: 1 });
    await expect(requester.request({ body: ["incr", "x"] })).rejects.toThrow(/ECONNRESET|socket hang up/);
    await new Promise((r) => setTimeout(r, 100));
    expect(received).toBe(2);
  });

  it("carries Upstash's read-your-writes sync token from each answer to the next call", async () => {
    const tokens: (string | undefined)[] = [];
    let n = 0;
    const url = await serve((req, _body, res) => {
      tokens.push(req.headers["upstash-sync-token"] as string | undefined);
      answer(res, 200, { result: "OK" }, { "upstash-sync-token": `sync-${++n}` });
    });
    const requester = upstashRequester({ url, token: "t", timeoutMs: 1000 });
    await requester.request({ body: ["set", "a", "1"] });
    await requester.request({ body: ["get", "a"] });
    expect(tokens).toEqual([undefined, "sync-1"]);
  });

  it("sends the single commands of one event-loop turn as one pipeline, each caller getting its own answer", async () => {
    const seen: { path?: string; body: string }[] = [];
    const url = await serve((req, body, res) => {
      seen.push({ path: req.url, body });
      answer(res, 200, [
        { result: 1 },
        { error: "WRONGTYPE Operation against a key holding the wrong kind of value" },
        { result: "x" },
      ]);
    });
    const requester = upstashRequester({ url: `${url}/v1`, token: "t", timeoutMs: 1000 });
    const [a, b, c] = await Promise.allSettled([
      requester.request({ body: ["incr", "n"] }),
      requester.request({ body: ["evalsha", "f".repeat(40), "1", "k", '{"secret":"v1.x"}'] }),
      requester.request({ body: ["get", "x"] }),
    ]);
    expect(seen).toEqual([
      {
        path: "/v1/pipeline",
        body: `[["incr","n"],["evalsha","${"f".repeat(40)}","1","k","{\\"secret\\":\\"v1.x\\"}"],["get","x"]]`,
      },
    ]);
    expect(a).toEqual({ status: "fulfilled", value: { result: 1 } });
    expect(b.status).toBe("rejected");
    expect(((b as PromiseRejectedResult).reason as Error).message).toBe(
      "WRONGTYPE Operation against a key holding the wrong kind of value, command was: evalsha",
    );
    expect(c).toEqual({ status: "fulfilled", value: { result: "x" } });
  });

  it("fails every caller of a pipeline that gets no answer, and sends it once", async () => {
    let calls = 0;
    const url = await serve(() => calls++);
    const requester = upstashRequester({ url, token: "t", timeoutMs: 150 });
    const results = await Promise.allSettled([
      requester.request({ body: ["incr", "a"] }),
      requester.request({ body: ["incr", "b"] }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/did not answer within 150 ms/);
    await new Promise((r) => setTimeout(r, 200));
    expect(calls).toBe(1);
  });

  it("fails every caller when a pipeline's answer does not match its commands", async () => {
    const url = await serve((_req, _body, res) => answer(res, 200, [{ result: 1 }]));
    const requester = upstashRequester({ url, token: "t", timeoutMs: 1000 });
    const results = await Promise.allSettled([
      requester.request({ body: ["incr", "a"] }),
      requester.request({ body: ["incr", "b"] }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  });

  it("sends calls made in later turns on their own", async () => {
    const paths: (string | undefined)[] = [];
    const url = await serve((req, _body, res) => {
      paths.push(req.url);
      answer(res, 200, { result: "OK" });
    });
    const requester = upstashRequester({ url, token: "t", timeoutMs: 1000 });
    await requester.request({ body: ["ping"] });
    await requester.request({ body: ["ping"] });
    expect(paths).toEqual(["/", "/"]);
  });

  it("posts to the base URL itself when the call has no path, as the stock client does", async () => {
    const paths: (string | undefined)[] = [];
    const url = await serve((req, _body, res) => {
      paths.push(req.url);
      answer(res, 200, { result: "OK" });
    });
    await upstashRequester({ url: `${url}/v1`, token: "t", timeoutMs: 1000 }).request({ body: ["ping"] });
    await upstashRequester({ url, token: "t", timeoutMs: 1000 }).request({ path: ["pipeline"], body: [["ping"]] });
    expect(paths).toEqual(["/v1", "/pipeline"]);
  });
});

const redisUrl = await testRedisUrl();
describe.skipIf(!redisUrl)("the limit store through emulators/upstash over the real Redis", () => {
  let emulator: UpstashEmulator;
  beforeAll(async () => {
    emulator = await startUpstashEmulator({ redisUrl: redisUrl!, token: "t" });
  });
  afterAll(async () => emulator?.stop());

  it("runs scripts by SHA, loading them on NOSCRIPT, and reads what it wrote", async () => {
    const redis = upstashRedis({ url: emulator.url, token: "t", timeoutMs: 2000 });
    // A Redis without the scripts (new, restarted, flushed): the store loads them itself.
    await redis.scriptFlush();
    const store = upstashStore(redis);
    const key = `requester-test:${Date.now()}`;
    await store.put(key, { v: 1, hello: "wörld ✓" }, 60);
    expect(await store.mget([key, `${key}:absent`])).toEqual([{ v: 1, hello: "wörld ✓" }, null]);
    expect(await store.incr(`${key}:n`, 60)).toBe(1);
    expect(await store.incr(`${key}:n`, 60)).toBe(2);
    await store.del(key);
    expect(await store.mget([key])).toEqual([null]);
  });

  it("answers concurrent calls, batched into pipelines, each as if it were alone, scripts loaded on NOSCRIPT", async () => {
    const redis = upstashRedis({ url: emulator.url, token: "t", timeoutMs: 2000 });
    await redis.scriptFlush();
    const store = upstashStore(redis);
    const key = `requester-batch:${Date.now()}`;
    const counts = await Promise.all(Array.from({ length: 150 }, () => store.incr(key, 60)));
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
    await store.put(`${key}:v`, { v: 1 }, 60);
    const [values, missing] = await Promise.all([store.mget([`${key}:v`]), store.mget([`${key}:absent`])]);
    expect(values).toEqual([{ v: 1 }]);
    expect(missing).toEqual([null]);
  });
});
