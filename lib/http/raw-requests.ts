// Requests that never reach a route (methods undici or Next.js refuse, undecodable paths) answered
// here in the envelope before Next.js sees them; API paths are tidied and reads of rows sent to
// their static route (lib/http/README.md).
import { Server, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { errorBody } from "./envelope";
import { ApiError, clip } from "@/lib/errors";
import { PEER_ADDRESS_HEADER, stampPeer } from "./peer-address";
import { READ_PATH_HEADER, readRewrite } from "./read-paths";
import { newRequestId, REQUEST_ID_HEADER, requestIdFrom } from "./request-id";
import { METHODS } from "./methods";

const REQUEST_ID_LOWER = REQUEST_ID_HEADER.toLowerCase();

// The methods the routes serve; each route names its own in `Allow` on a 405.
const SERVED = new Set<string>(METHODS);
const ALLOW = METHODS.join(", ");

const splitOnce = (text: string, separator: string): [string, string?] => {
  const at = text.indexOf(separator);
  return at < 0 ? [text] : [text.slice(0, at), text.slice(at + 1)];
};

/** Whether percent-encoded text decodes to UTF-8 (no stray `%`, no invalid bytes or lone surrogates). */
function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** The refusal a request gets before routing, or undefined when Next.js can route it. */
export function rawRefusal(method: string, url: string): ApiError | undefined {
  if (!SERVED.has(method)) {
    return new ApiError(
      "method_not_allowed",
      `${method ? `${clip(method)} is` : "This method is"} not served here: the API answers ${ALLOW}.`,
      {},
      { Allow: ALLOW },
    );
  }
  if (!url.includes("%")) return undefined;
  const [path, query = ""] = splitOnce(url, "?");
  if (path.includes("%") && !decodes(path)) {
    return new ApiError(
      "validation_error",
      `The path ${clip(path)} is not valid percent-encoded UTF-8: encode each byte as %XX with two hex digits.`,
    );
  }
  // An API query that does not decode would otherwise be read leniently (`filter=name=%FF` a
  // filter on U+FFFD, matching nothing, with a 200): the client is told instead.
  if (path.startsWith("/api/") && query.includes("%") && !decodes(query.replace(/\+/g, " "))) {
    return new ApiError(
      "validation_error",
      `The query string ${clip(query)} is not valid percent-encoded UTF-8: encode each byte as %XX with two hex digits.`,
    );
  }
  return undefined;
}

// The paths answered by route handlers for API clients: a path under them with a trailing slash
// or doubled slashes is the same resource. Pages are left to Next.js, whose 308 to the clean
// path is what a browser needs (its address bar and client router then hold the clean path).
const API_ROOTS = ["/api", "/billing", "/health", "/register", "/auth"];

/**
 * An API path's URL made canonical: runs of slashes made one, and no trailing slash
 * (`/api//v1/s/T/` → `/api/v1/s/T`); undefined when it already is, or is not an API path.
 * Next.js would answer such a path with a bare 308 (no envelope, no CORS headers, so a browser's
 * cross-origin fetch fails, no rate-limit headers), and a handler reached with the slash would
 * see another path than the same request without it (an Idempotency-Key retry, the log's route).
 * The query is left as it is: a filter value may hold `//`.
 */
export function canonicalApiUrl(url: string): string | undefined {
  // An absolute-form target (`GET http://host/path`, from some proxies) is left to Next.js.
  if (!url.startsWith("/")) return undefined;
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  if (!path.includes("//") && (path.length === 1 || !path.endsWith("/"))) return undefined;
  let canonical = path.replace(/\/{2,}/g, "/");
  if (canonical.length > 1 && canonical.endsWith("/")) canonical = canonical.slice(0, -1);
  if (!API_ROOTS.some((root) => canonical === root || canonical.startsWith(`${root}/`))) return undefined;
  return canonical + (q < 0 ? "" : url.slice(q));
}

function answer(req: IncomingMessage, res: ServerResponse, err: ApiError): void {
  const body = JSON.stringify(errorBody(err));
  res.writeHead(err.status, {
    ...err.headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "Access-Control-Allow-Origin": "*",
    [REQUEST_ID_HEADER]: newRequestId(),
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

/** An answer written on the socket itself, for requests Node's HTTP parser refuses before any handler. */
function answerOnSocket(socket: Socket, status: string, refusal: ApiError, extra: string[] = []): void {
  const body = JSON.stringify(errorBody(refusal));
  const head = [
    `HTTP/1.1 ${status}`,
    ...extra,
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Cache-Control: no-store",
    "Access-Control-Allow-Origin: *",
    `${REQUEST_ID_HEADER}: ${newRequestId()}`,
    "Connection: close",
  ];
  socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
}

/** A method Node's HTTP parser does not know (`FOO`): the same 405 instead of its empty 400. */
function answerUnknownMethod(socket: Socket): void {
  answerOnSocket(socket, "405 Method Not Allowed", rawRefusal("", "/")!, [`Allow: ${ALLOW}`]);
}

/**
 * A request line and headers over Node's limit (16 KB; a long `in` filter gets there first):
 * still 431, but in the envelope a browser can read, saying what to do, instead of an empty body.
 */
function answerHeadersTooLarge(socket: Socket): void {
  const refusal = new ApiError(
    "validation_error",
    "The request's URL and headers together exceed 16 KB, more than the server reads. Shorten the URL: split a long filter (an `in` list of many values) over several requests.",
  );
  answerOnSocket(socket, "431 Request Header Fields Too Large", refusal);
}

let guarded = false;

/**
 * Puts the check in front of every HTTP server of this process (the one `next start` made
 * included): a request it refuses is answered at once and never reaches Next.js. Costs one Set
 * lookup per request, and a decode only for paths holding a `%`.
 */
export function guardRawRequests(): void {
  if (guarded) return;
  guarded = true;
  const emit = Server.prototype.emit;
  Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request") {
      const [req, res] = args as [IncomingMessage, ServerResponse];
      const refusal = rawRefusal(req.method ?? "", req.url ?? "/");
      if (refusal) {
        answer(req, res, refusal);
        return true;
      }
      const canonical = canonicalApiUrl(req.url ?? "/");
      if (canonical !== undefined) req.url = canonical;
      const read = readRewrite(req.method ?? "", req.url ?? "/");
      if (read) {
        req.url = read.url;
        req.headers[READ_PATH_HEADER] = read.stamp;
      }
      req.headers[PEER_ADDRESS_HEADER] = stampPeer(req.socket?.remoteAddress ?? "");
      // Every answer carries the request's id, also those no route or proxy handles (an unknown
      // page's 404, static files). Routes and the page proxy read the same id from the request,
      // and Next.js keeps a header already set, so each answer carries one id, the one logged.
      const id = requestIdFrom(req.headers[REQUEST_ID_LOWER]);
      req.headers[REQUEST_ID_LOWER] = id;
      res.setHeader(REQUEST_ID_HEADER, id);
    } else if (event === "clientError" && this.listenerCount("clientError") === 0) {
      // Other parse errors keep Node's own answers (408, 413, 400).
      const [err, socket] = args as [NodeJS.ErrnoException, Socket];
      if (err.code === "HPE_INVALID_METHOD" && socket.writable) {
        answerUnknownMethod(socket);
        return true;
      }
      if (err.code === "HPE_HEADER_OVERFLOW" && socket.writable) {
        answerHeadersTooLarge(socket);
        return true;
      }
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  };
}
