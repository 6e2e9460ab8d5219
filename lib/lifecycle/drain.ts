// What a stopping server needs to know about its HTTP side: the servers of this process and the
// requests still being answered. Found where every request passes (the servers' "request"
// event), so pages, route handlers and server actions are all counted, whichever bundle serves them.
import { Server, type IncomingMessage, type ServerResponse } from "node:http";
import { perProcess } from "@/lib/per-process";

const state = perProcess("lifecycle:drain", () => ({
  installed: false,
  draining: false,
  inFlight: 0,
  servers: new Set<Server>(),
  idle: [] as (() => void)[],
}));

/** True once the process has begun to stop: readiness answers 503 so balancers stop sending. */
export const isDraining = () => state.draining;

/** Requests this process is answering now. */
export const inFlightRequests = () => state.inFlight;

function settled(): void {
  state.inFlight--;
  if (state.inFlight === 0) for (const done of state.idle.splice(0)) done();
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
      res.once("close", settled);
      // Answered while stopping: the client opens its next connection elsewhere.
      if (state.draining) res.shouldKeepAlive = false;
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  };
}

/**
 * Stops accepting connections, closes the idle kept-alive ones, and waits until every request
 * under way is answered or `boundMs` passed; resolves with the number still unanswered.
 */
export async function drainRequests(boundMs: number): Promise<number> {
  state.draining = true;
  for (const server of state.servers) {
    server.close();
    server.closeIdleConnections();
  }
  if (state.inFlight > 0) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, boundMs);
      timer.unref();
      state.idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  return state.inFlight;
}
