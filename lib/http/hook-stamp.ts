// What lib/http/raw-requests.ts learns before Next.js sees a request (the peer's address, the
// path a read was asked at) reaches the route handlers as request headers. A client can send any
// header, so each value carries a secret made once per process: a request the hook did not stamp
// (one accepted before it was installed, one to a server it does not patch) carries no value a
// client could have chosen.
import { randomBytes } from "node:crypto";
import { perProcess } from "@/lib/per-process";

const secret = () => perProcess("hook-stamp-secret", () => randomBytes(16).toString("hex"));

/** The header value that carries `value` from the hook. */
export function stamp(value: string): string {
  return `${secret()} ${value}`;
}

/** The value the hook stamped; undefined when it did not (whatever a client sent). */
export function unstamp(header: string | null | undefined): string | undefined {
  const prefix = `${secret()} `;
  return header?.startsWith(prefix) && header.length > prefix.length ? header.slice(prefix.length) : undefined;
}
