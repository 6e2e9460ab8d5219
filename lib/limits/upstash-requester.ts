// How @upstash/redis reaches the Upstash REST API from this server: one keep-alive node:http(s)
// request per call, in place of the client's default, the global fetch. Every API request makes
// one limit-store call, and inside Next.js fetch is instrumented (tracing, caching decisions)
// on top of undici's web streams: together they cost more CPU than the rest of a cached answer
// (bench/RESULTS.md, Hot path). The protocol is the client's own: POST of the command (or of a
// pipeline) as JSON to the base URL plus the request's path, a Bearer token, the JSON answer.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { urlToHttpOptions } from "node:url";
import { errors, Redis, type Requester, type UpstashRequest, type UpstashResponse } from "@upstash/redis";

export interface UpstashTarget {
  url: string;
  token: string;
  /** Each call is abandoned after this long (DECISIONS 18a: one bounded attempt). */
  timeoutMs: number;
}

/** Sockets kept open to the store per instance: enough for a burst of concurrent requests. */
const MAX_SOCKETS = 64;
// An idle kept-alive socket is closed after this long, before a server or proxy would close it
// (Node's server does after 5 s and says so in Keep-Alive, which the agent also honours): a call
// is never sent again, so it must not go out on a socket the other side is closing.
const IDLE_SOCKET_MS = 4_000;

/** The answer's text; fails when the connection closes before the answer is complete. */
function readAnswer(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => (text += chunk));
    res.once("end", () => resolve(text));
    res.once("error", reject);
    res.once("close", () => {
      if (!res.complete) reject(new Error("The limit store closed the connection before its answer was complete."));
    });
  });
}

/** The call's name for error messages: never its arguments, which hold stored records. */
const commandName = (body: unknown) => (Array.isArray(body) ? (Array.isArray(body[0]) ? `pipeline of ${body.length}` : String(body[0])) : "?");

export function upstashRequester({ url, token, timeoutMs }: UpstashTarget): Requester {
  const base = new URL(url);
  const target = urlToHttpOptions(base);
  const secure = base.protocol === "https:";
  const send = secure ? httpsRequest : httpRequest;
  const agentOptions = { keepAlive: true, maxSockets: MAX_SOCKETS, timeout: IDLE_SOCKET_MS };
  const agent = secure ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
  const basePath = base.pathname.replace(/\/$/, "");
  const authorization = `Bearer ${token}`;

  /** One attempt: the status and text of the answer, or a failure within the timeout. */
  function post(path: string, body: string, extra: Record<string, string> | undefined): Promise<{ status: number; text: string; sync: unknown }> {
    const headers: Record<string, string | number> = { authorization, "content-type": "application/json", "content-length": Buffer.byteLength(body) };
    for (const [name, value] of Object.entries(extra ?? {})) if (value !== undefined) headers[name] = value;
    if (requester.upstashSyncToken) headers["upstash-sync-token"] = requester.upstashSyncToken;
    return new Promise((resolve, reject) => {
      const call = send({ ...target, path: `${path}${base.search}`, method: "POST", agent, headers }, (res) => {
        readAnswer(res).then((text) => resolve({ status: res.statusCode ?? 500, text, sync: res.headers["upstash-sync-token"] }), reject);
      });
      const timer = setTimeout(() => call.destroy(new Error(`The limit store did not answer within ${timeoutMs} ms.`)), timeoutMs);
      call.once("close", () => clearTimeout(timer));
      call.once("error", reject);
      call.end(body);
    });
  }

  const requester: Requester = {
    // Upstash's read-your-writes: each answer's sync token goes with the next call, so a read
    // served by a replica reflects this client's earlier writes.
    readYourWrites: true,
    upstashSyncToken: "",
    async request<TResult>(req: UpstashRequest): Promise<UpstashResponse<TResult>> {
      const body = JSON.stringify(req.body);
      const { status, text, sync } = await post([basePath, ...(req.path ?? [])].join("/") || "/", body, req.headers);
      let answer: UpstashResponse<TResult>;
      try {
        answer = JSON.parse(text) as UpstashResponse<TResult>;
      } catch (err) {
        throw new errors.UpstashJSONParseError(text, { cause: err });
      }
      // Redis's own message first (callers look for NOSCRIPT there), then the command's name.
      if (status >= 300) throw new errors.UpstashError(`${answer.error}, command was: ${commandName(req.body)}`);
      requester.upstashSyncToken = typeof sync === "string" ? sync : "";
      return answer;
    },
  };
  return requester;
}

/**
 * The Upstash client every limit store on Redis uses (the service, its tests and benchmarks).
 * Built from a requester, the client does not batch concurrent calls into pipelines
 * (auto-pipelining): each API request makes one call of its own, as bench/hot-path.ts measures.
 */
export const upstashRedis = (target: UpstashTarget) => new Redis(upstashRequester(target));
