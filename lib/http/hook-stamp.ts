// Carries what lib/http/raw-requests.ts learns before Next.js (peer address, asked path) to the
// route handlers as request headers, each stamped with a per-process, per-header secret so no
// client can forge one (lib/http/README.md).
import { randomBytes, timingSafeEqual } from "node:crypto";
import { perProcess } from "@/lib/per-process";

export interface HookStamp {
  /** The header value that carries `value` from the hook. */
  stamp(value: string): string;
  /** The value the hook stamped; undefined when it did not (whatever a client sent). */
  unstamp(sent: string | null | undefined): string | undefined;
}

/**
 * The stamp of `header`. Its secret is the process's own (the hook and each route bundle hold
 * their own copy of this module), looked up on first use and then kept: requests pay no lookup.
 */
export function hookStamp(header: string): HookStamp {
  let secret: { text: string; bytes: Buffer } | undefined;
  const secretOf = () =>
    (secret ??= perProcess(`hook-stamp-secret:${header}`, () => {
      const text = randomBytes(16).toString("hex");
      return { text, bytes: Buffer.from(text) };
    }));
  return {
    stamp: (value) => `${secretOf().text} ${value}`,
    unstamp: (sent) => {
      const { text, bytes } = secretOf();
      if (!sent || sent.length <= text.length + 1 || sent[text.length] !== " ") return undefined;
      const given = Buffer.from(sent.slice(0, text.length));
      return given.length === bytes.length && timingSafeEqual(given, bytes) ? sent.slice(text.length + 1) : undefined;
    },
  };
}
