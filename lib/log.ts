// Structured JSON logs (pino), one line per event. What must never reach a log is removed here
// and at the source: API key values, tokens, cookies and cell contents are never passed in, and
// the redaction below is the safety net for header objects and error details that carry them.
import pino from "pino";
import { logLevel } from "./env";
import { redactSecrets } from "./observability/redaction";
import { requestLogFields } from "./observability/request-context";
import { perProcess } from "./per-process";

const level = logLevel();

// Lines go to stdout, the lines of one turn of the event loop in one write: under load a write
// (a system call on a pipe) per request line costs more than making the line. Tests swap the
// target to read them, line by line.
// One buffer per process (each bundle's copy of this module writes to it), flushed on exit too.
const stdout = perProcess("log-stdout", () => {
  const pending: string[] = [];
  const flush = () => {
    if (pending.length) process.stdout.write(pending.splice(0).join(""));
  };
  process.once?.("exit", flush);
  return {
    write(line: string) {
      if (pending.push(line) === 1) setImmediate(flush);
    },
  };
});

let target: { write(line: string): unknown } = stdout;
export function setLogTarget(next: { write(line: string): unknown } | undefined): void {
  target = next ?? stdout;
}

// Field names that could carry a secret, censored wherever they appear at the top of a line;
// header objects have their key and cookie headers censored.
const SECRET_NAMES = ["apiKey", "api_key", "token", "refreshToken", "refresh_token", "access_token", "secret"];
const CENSOR = "[redacted]";

export const log = pino(
  {
    level,
    base: { service: "sheetapi" },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // Lines written while a request is answered name it (request id, route, sheet); fields a
    // caller passes itself win.
    mixin: requestLogFields,
    redact: {
      paths: [
        "headers.x-api-key",
        "headers.authorization",
        "headers.cookie",
        "*.headers.x-api-key",
        "*.headers.authorization",
        "*.headers.cookie",
        ...SECRET_NAMES,
      ],
      censor: CENSOR,
    },
    // Values are censored too: an error's message can hold a URL with `?key=` or a token in it.
  },
  { write: (line: string) => target.write(redactSecrets(line)) },
);

/** An error's message and name for a log line (not its whole object: errors may carry requests). */
export const errorFields = (err: unknown) =>
  err instanceof Error ? { err: { name: err.name, message: err.message } } : { err: { message: String(err) } };

// The one line every request writes, made without pino's general machinery (bindings,
// serializers, the redaction paths): the same JSON pino writes (level, time, service, the
// fields, msg), at a fraction of the cost on the hot path. Its fields are the route's own
// (lib/routes/route.ts); a name that could carry a secret is censored all the same, and, its
// fields being scalars, a `headers` field whole.
const SECRET_FIELDS = new Set([...SECRET_NAMES, "headers"]);
let isoSecond = -1;
let isoPrefix = "";

/** pino's isoTime (`2026-11-23T21:05:09.123Z`), formatted once per second. */
function isoNow(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoPrefix = new Date(second * 1000).toISOString().slice(0, 20);
  }
  return `${isoPrefix}${String(now % 1000).padStart(3, "0")}Z`;
}

/** Logs the request line at info: `{"level":"info","time":…,"service":"sheetapi",…fields,"msg":"request"}`. */
export function logRequest(fields: Record<string, string | number | undefined>): void {
  if (!log.isLevelEnabled("info")) return;
  for (const name of Object.keys(fields)) if (SECRET_FIELDS.has(name)) fields[name] = CENSOR;
  const body = JSON.stringify(fields);
  target.write(
    `{"level":"info","time":"${isoNow()}","service":"sheetapi"${body.length > 2 ? `,${body.slice(1, -1)}` : ""},"msg":"request"}\n`,
  );
}
