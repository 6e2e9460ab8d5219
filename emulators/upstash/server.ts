// emulators/upstash: the Upstash Redis REST protocol over a real Redis, so @upstash/redis and
// @upstash/ratelimit run unchanged against a real Redis (the tests, CI, local work; deployments use
// Upstash itself or reach their own Redis directly, lib/store/redis-store.ts).
// POST / takes one command as a JSON array; /pipeline and /multi-exec take an array of them.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { ScriptMap, translateCommand } from "./lua";

export interface UpstashEmulatorOptions {
  redisUrl?: string;
  token: string;
  port?: number;
  host?: string;
}

export interface UpstashEmulator {
  url: string;
  token: string;
  stop(): Promise<void>;
}

type Reply = { result: unknown } | { error: string };

/** With `Upstash-Encoding: base64` every string in a result is sent base64-encoded. */
function encode(value: unknown): unknown {
  if (typeof value === "string") return Buffer.from(value, "utf8").toString("base64");
  if (Array.isArray(value)) return value.map(encode);
  return value;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

// Every request of the service passes through here (the limit check is one call per API
// request), so the bridge reads bodies with plain events rather than an async iterator.
function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("error", reject);
    req.once("end", () => {
      try {
        resolve(JSON.parse((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString("utf8")));
      } catch (err) {
        reject(err);
      }
    });
  });
}

/** The request's path without its query (no URL object per request). */
const pathOf = (url = "/") => {
  const q = url.indexOf("?");
  return q < 0 ? url : url.slice(0, q);
};

const isCommand = (c: unknown): c is unknown[] => Array.isArray(c) && c.length > 0;
const asArgs = (command: unknown[]) => command.map((a) => (typeof a === "string" ? a : JSON.stringify(a)));

export async function startUpstashEmulator(options: UpstashEmulatorOptions): Promise<UpstashEmulator> {
  const redis = new Redis(options.redisUrl ?? "redis://127.0.0.1:6379", { lazyConnect: true, maxRetriesPerRequest: 1 });
  // While Redis is away, each command answers its own error; ioredis reconnects by itself.
  let down = false;
  redis.on("error", (err) => {
    if (!down) console.warn(`emulators/upstash: Redis unreachable (${err.message}); reconnecting`);
    down = true;
  });
  redis.on("ready", () => (down = false));
  await redis.connect();
  const scripts = new ScriptMap();

  async function run(command: unknown[]): Promise<Reply> {
    const [name, ...args] = asArgs(translateCommand(command, scripts));
    try {
      return { result: await redis.call(name!, ...args) };
    } catch (err) {
      return { error: (err as Error).message };
    }
  }

  async function runTransaction(commands: unknown[][]): Promise<Reply[]> {
    const multi = redis.multi();
    for (const c of commands) {
      const [name, ...args] = asArgs(translateCommand(c, scripts));
      multi.call(name!, ...args);
    }
    const results = (await multi.exec()) ?? [];
    return results.map(([err, result]) => (err ? { error: err.message } : { result }));
  }

  const server = createServer(async (req, res) => {
    if (req.headers.authorization !== `Bearer ${options.token}`) return send(res, 401, { error: "Unauthorized" });
    if (req.method !== "POST") return send(res, 405, { error: "ERR only POST is supported" });
    const base64 = String(req.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
    const wrap = (r: Reply): Reply => ("result" in r && base64 ? { result: encode(r.result) } : r);
    let body: unknown;
    try {
      body = await readJson(req);
    } catch {
      return send(res, 400, { error: "ERR failed to parse the request body as JSON" });
    }
    const path = pathOf(req.url);
    try {
      if (path === "/pipeline" || path === "/multi-exec") {
        if (!Array.isArray(body) || !body.every(isCommand))
          return send(res, 400, { error: "ERR expected an array of commands" });
        const replies = path === "/pipeline" ? await Promise.all(body.map(run)) : await runTransaction(body);
        return send(res, 200, replies.map(wrap));
      }
      if (path === "/" && isCommand(body)) {
        const reply = await run(body);
        return send(res, "error" in reply ? 400 : 200, wrap(reply));
      }
      send(res, 400, { error: "ERR expected a command as a JSON array" });
    } catch (err) {
      send(res, 500, { error: `ERR ${(err as Error).message}` });
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    token: options.token,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.disconnect();
    },
  };
}
