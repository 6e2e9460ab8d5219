// What a stopping server needs to know about its HTTP side: the servers of this process and the
// requests still being answered. Found where every request passes (the servers' "request"
// event), so pages, route handlers and server actions are all counted, whichever bundle serves them.
import { Server, type IncomingMessage, type ServerResponse } from "node:http";
import { Server as NetServer } from "node:net";
import { perProcess } from "@/lib/per-process";

const state = perProcess("lifecycle:drain", () => ({
  installed: false,
  draining: false,
  inFlight: 0,
  servers: new Set<Server>(),
  lastRequestAt: 0,
}));

/** Kept-alive connections get this long without a new request before they are closed. */
const QUIET_MS = 1_000;

/** True once the process has begun to stop: readiness answers 503 so balancers stop sending. */
export const isDraining = () => state.draining;

/** Requests this process is answering now. */
export const inFlightRequests = () => state.inFlight;

function settled(): void {
  state.inFlight--;
}

/** Starts counting this process's requests (idempotent). */
export function trackRequests(): void {
  if (state.installed) return;
  state.installed = true;
  const emit = Server.prototype.emit;
  Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request") {
      const res = args[1] as ServerResponse<IncomingMessage>;
      state.servers.add(this);
      state.inFlight++;
      state.lastRequestAt = Date.now();
      res.once("close", settled);
      // Answered while stopping: the client opens its next connection elsewhere.
      if (state.draining) res.shouldKeepAlive = false;
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  };
}

/**
 * Stops accepting connections and waits until every request under way is answered and the
 * kept-alive connections have been quiet for a moment, or `boundMs` passed; then closes every
 * connection. Resolves with the number of requests still unanswered.
 *
 * Kept-alive connections are not closed at once (http's own close() would): a client may be
 * sending its next request on one at that very moment and would see the connection reset.
 * Requests that still come on them are answered with `Connection: close` (see above), so each
 * closes cleanly after its answer.
 */
export async function drainRequests(boundMs: number): Promise<number> {
  state.draining = true;
  // The listening socket only (net's close): no new connections, the open ones kept.
  for (const server of state.servers) NetServer.prototype.close.call(server);
  const deadline = Date.now() + boundMs;
  while (Date.now() < deadline && (state.inFlight > 0 || Date.now() - state.lastRequestAt < QUIET_MS)) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const unanswered = state.inFlight;
  for (const server of state.servers) server.closeAllConnections();
  return unanswered;
}
