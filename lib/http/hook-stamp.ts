// What lib/http/raw-requests.ts learns before Next.js sees a request (the peer's address, the
// path a read was asked at) reaches the route handlers as request headers. A client can send any
// header, so each value carries a secret made once per process for that header alone: a request
// the hook did not stamp (one accepted before it was installed, one to a server it does not
// patch) carries no value a client could have chosen, and one header's secret says nothing of
// another's.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { perProcess } from "@/lib/per-process";

const secretOf = (header: string) => perProcess(`hook-stamp-secret:${header}`, () => randomBytes(16).toString("hex"));

/** The value of `header` that carries `value` from the hook. */
export function stamp(header: string, value: string): string {
  return `${secretOf(header)} ${value}`;
}

/** The value the hook stamped in `header`; undefined when it did not (whatever a client sent). */
export function unstamp(header: string, sent: string | null | undefined): string | undefined {
  const secret = secretOf(header);
  if (!sent || sent.length <= secret.length + 1 || sent[secret.length] !== " ") return undefined;
  const given = Buffer.from(sent.slice(0, secret.length));
  return given.length === secret.length && timingSafeEqual(given, Buffer.from(secret)) ? sent.slice(secret.length + 1) : undefined;
}
