// How @upstash/redis reaches the Upstash REST API from this server: one keep-alive node:http(s)
// request per call, in place of the client's default, the global fetch. Every API request makes
// one limit-store call, and inside Next.js fetch is instrumented (tracing, caching decisions)
// on top of undici's web streams: together they cost more CPU than the rest of a cached answer
// (bench/RESULTS.md, Hot path). The protocol is the client's own: POST of the command (or of a
// pipeline) as JSON to the base URL plus the request's path, a Bearer token, the JSON answer.
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { errors, Redis, type Requester, type UpstashRequest, type UpstashResponse } from "@upstash/redis";

export interface UpstashTarget {
  url: string;
  token: string;
  /** Each call is abandoned after this long (DECISIONS 18a: one bounded attempt). */
  timeoutMs: number;
}

/** Sockets kept open to the store per instance: enough for a burst of concurrent requests. */
const MAX_SOCKETS = 64;

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

/** A kept-alive socket the server closed while idle: the call never reached it, so it may go again. */
const staleSocket = (call: ClientRequest, err: unknown) => call.reusedSocket && (err as NodeJS.ErrnoException).code === "ECONNRESET";

export function upstashRequester({ url, token, timeoutMs }: UpstashTarget): Requester {
  const base = new URL(url);
  const secure = base.protocol === "https:";
  const send = secure ? httpsRequest : httpRequest;
  const agent = secure ? new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS }) : new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  const prefix = base.pathname.replace(/\/$/, "");
  const authorization = `Bearer ${token}`;

  function attempt(path: string, body: string, extra: Record<string, string> | undefined, deadline: number, retried: boolean): Promise<{ status: number; text: string; sync: unknown }> {
    const headers: Record<string, string | number> = { authorization, "content-type": "application/json", "content-length": Buffer.byteLength(body), ...extra };
    if (requester.upstashSyncToken) headers["upstash-sync-token"] = requester.upstashSyncToken;
    return new Promise((resolve, reject) => {
      const call = send({ protocol: base.protocol, hostname: base.hostname, port: base.port, path, method: "POST", agent, headers }, (res) => {
        readAnswer(res).then((text) => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 500, text, sync: res.headers["upstash-sync-token"] });
        }, fail);
      });
      const timer = setTimeout(() => call.destroy(new Error(`The limit store did not answer within ${timeoutMs} ms.`)), Math.max(0, deadline - Date.now()));
      function fail(err: unknown) {
        clearTimeout(timer);
        if (!retried && staleSocket(call, err) && Date.now() < deadline) resolve(attempt(path, body, extra, deadline, true));
        else reject(err);
      }
      call.once("error", fail);
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
      const { status, text, sync } = await attempt(`${prefix}/${(req.path ?? []).join("/")}`, body, req.headers, Date.now() + timeoutMs, false);
      if (typeof sync === "string") requester.upstashSyncToken = sync;
      let answer: UpstashResponse<TResult>;
      try {
        answer = JSON.parse(text) as UpstashResponse<TResult>;
      } catch (err) {
        throw new errors.UpstashJSONParseError(text, { cause: err });
      }
      // The client's own wording, which callers read (NOSCRIPT from a Redis that lost a script).
      if (status >= 300) throw new errors.UpstashError(`${answer.error}, command was: ${body}`);
      return answer;
    },
  };
  return requester;
}

/** The Upstash client every limit store on Redis uses (the service, its tests and benchmarks). */
export const upstashRedis = (target: UpstashTarget) => new Redis(upstashRequester(target));
