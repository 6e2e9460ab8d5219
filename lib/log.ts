// Structured JSON logs (pino), one line per event. What must never reach a log is removed here
// and at the source: API key values, tokens, cookies and cell contents are never passed in, and
// the redaction below is the safety net for header objects and error details that carry them.
import pino from "pino";
import { logLevel } from "./env";
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

export const log = pino({
  level,
  base: { service: "sheetapi" },
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
  redact: {
    paths: ["headers.x-api-key", "headers.authorization", "headers.cookie", "*.headers.x-api-key", "*.headers.authorization", "*.headers.cookie", "apiKey", "api_key", "token", "refreshToken", "refresh_token", "access_token", "secret"],
    censor: "[redacted]",
  },
}, { write: (line: string) => target.write(line) });

/** An error's message and name for a log line (not its whole object: errors may carry requests). */
export const errorFields = (err: unknown) => (err instanceof Error ? { err: { name: err.name, message: err.message } } : { err: { message: String(err) } });
