// How @upstash/redis reaches the Upstash REST API from this server: keep-alive node:http(s)
// requests in place of the client's default, the global fetch (why: README.md).
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
const commandName = (body: unknown) =>
  Array.isArray(body) ? (Array.isArray(body[0]) ? `pipeline of ${body.length}` : String(body[0])) : "?";

/** A single command waiting for the end of the event loop's turn, when its batch goes out. */
interface Waiting {
  command: unknown;
  resolve: (answer: UpstashResponse<unknown>) => void;
  reject: (err: unknown) => void;
}

/** At most this many commands go in one pipeline; a larger turn's worth goes as several. */
const MAX_BATCH = 64;

export function upstashRequester({ url, token, timeoutMs }: UpstashTarget): Requester {
  const base = new URL(url);
  const target = urlToHttpOptions(base);
  const secure = base.protocol === "https:";
  const send = secure ? httpsRequest : httpRequest;
  const agentOptions = { keepAlive: true, maxSockets: MAX_SOCKETS, timeout: IDLE_SOCKET_MS };
  const agent = secure ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
  const basePath = base.pathname.replace(/\/$/, "");
  const rootPath = basePath || "/";
  const pipelinePath = `${basePath}/pipeline`;
  const authorization = `Bearer ${token}`;

  /** One attempt: the status and text of the answer, or a failure within the timeout. */
  function post(
    path: string,
    body: string,
    extra: Record<string, string> | undefined,
  ): Promise<{ status: number; text: string; sync: unknown }> {
    const headers: Record<string, string | number> = {
      authorization,
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
    };
    for (const [name, value] of Object.entries(extra ?? {})) if (value !== undefined) headers[name] = value;
    if (requester.upstashSyncToken) headers["upstash-sync-token"] = requester.upstashSyncToken;
    return new Promise((resolve, reject) => {
      const call = send({ ...target, path: `${path}${base.search}`, method: "POST", agent, headers }, (res) => {
        readAnswer(res).then(
          (text) => resolve({ status: res.statusCode ?? 500, text, sync: res.headers["upstash-sync-token"] }),
          reject,
        );
      });
      const timer = setTimeout(
        () => call.destroy(new Error(`The limit store did not answer within ${timeoutMs} ms.`)),
        timeoutMs,
      );
      call.once("close", () => clearTimeout(timer));
      call.once("error", reject);
      call.end(body);
    });
  }

  /** One call to the REST API: its parsed answer, or Redis's error for an answer of 3xx and up. */
  async function exchange<T>(path: string, body: unknown, extra?: Record<string, string>): Promise<T> {
    const { status, text, sync } = await post(path, JSON.stringify(body), extra);
    let answer: T;
    try {
      answer = JSON.parse(text) as T;
    } catch (err) {
      throw new errors.UpstashJSONParseError(text, { cause: err });
    }
    // Redis's own message first (callers look for NOSCRIPT there), then the command's name.
    if (status >= 300)
      throw new errors.UpstashError(`${(answer as UpstashResponse<unknown>).error}, command was: ${commandName(body)}`);
    requester.upstashSyncToken = typeof sync === "string" ? sync : "";
    return answer;
  }

  // Single commands made in one turn of the event loop go out together, as one pipeline. Under
  // load many API requests reach their limit check in the same turn, and one HTTP exchange for
  // all their scripts costs this server and the store far less than one each. Upstash runs a
  // pipeline's commands one after the other, each as it would run alone (not as a transaction),
  // and answers each its own result or error, so every caller sees what it would have seen
  // alone; a failed exchange (timeout, reset, an answer that is not JSON) fails each of its
  // callers, and none is sent again. A command alone in its turn goes as it always did.
  let waiting: Waiting[] = [];
  async function sendBatch(batch: Waiting[]) {
    try {
      const replies = await exchange<UpstashResponse<unknown>[]>(
        pipelinePath,
        batch.map((w) => w.command),
      );
      if (!Array.isArray(replies) || replies.length !== batch.length)
        throw new errors.UpstashError(`The limit store answered a pipeline of ${batch.length} with something else.`);
      batch.forEach((w, i) => {
        const reply = replies[i]!;
        if (reply.error !== undefined)
          w.reject(new errors.UpstashError(`${reply.error}, command was: ${commandName(w.command)}`));
        else w.resolve(reply);
      });
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
  function flush() {
    const turn = waiting;
    waiting = [];
    if (turn.length === 1) {
      const [only] = turn;
      exchange<UpstashResponse<unknown>>(rootPath, only!.command).then(only!.resolve, only!.reject);
      return;
    }
    for (let i = 0; i < turn.length; i += MAX_BATCH) void sendBatch(turn.slice(i, i + MAX_BATCH));
  }

  const requester: Requester = {
    // Upstash's read-your-writes: each answer's sync token goes with the next call, so a read
    // served by a replica reflects this client's earlier writes.
    readYourWrites: true,
    upstashSyncToken: "",
    request<TResult>(req: UpstashRequest): Promise<UpstashResponse<TResult>> {
      // Pipelines and transactions the caller made, and calls with headers of their own, go as they are.
      if (req.path?.length || (req.headers && Object.keys(req.headers).length)) {
        return exchange<UpstashResponse<TResult>>(
          [basePath, ...(req.path ?? [])].join("/") || "/",
          req.body,
          req.headers,
        );
      }
      return new Promise((resolve, reject) => {
        if (!waiting.length) setImmediate(flush);
        waiting.push({ command: req.body, resolve: resolve as Waiting["resolve"], reject });
      });
    },
  };
  return requester;
}

/**
 * The Upstash client every limit store on Redis uses (the service, its tests and benchmarks).
 * Built from a requester, the client's own auto-pipelining (calls made within two microtasks)
 * is off; the requester batches the calls of one event-loop turn instead, which is what joins
 * separate API requests.
 */
export const upstashRedis = (target: UpstashTarget) => new Redis(upstashRequester(target));
