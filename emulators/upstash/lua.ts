// Redis 7.0 (Debian's) rejects script flags it does not know, such as the `allow-key-locking`
// flag @upstash/ratelimit puts in its shebang. Scripts are rewritten before they reach Redis and
// the client's SHA is mapped to the rewritten script's SHA, so EVALSHA keeps hitting.
import { createHash } from "node:crypto";

const KNOWN_FLAGS = new Set(["no-writes", "allow-oom", "allow-stale", "no-cluster", "allow-cross-slot-keys"]);

export const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

export function rewriteScript(script: string): string {
  const match = /^#!lua([^\n]*)\n/.exec(script);
  if (!match) return script;
  const flags =
    /flags=(\S*)/
      .exec(match[1]!)?.[1]
      ?.split(",")
      .filter((f) => KNOWN_FLAGS.has(f)) ?? [];
  const body = script.slice(match[0].length);
  return flags.length ? `#!lua flags=${flags.join(",")}\n${body}` : body;
}

/** Remembers original SHA -> rewritten SHA for every script seen through EVAL or SCRIPT LOAD. */
export class ScriptMap {
  private map = new Map<string, string>();

  remember(original: string): string {
    const rewritten = rewriteScript(original);
    this.map.set(sha1(original), sha1(rewritten));
    return rewritten;
  }

  resolve(sha: string): string {
    return this.map.get(sha.toLowerCase()) ?? sha;
  }
}

/** Rewrites one command (as sent by the client) into what Redis should run. */
export function translateCommand(command: unknown[], scripts: ScriptMap): unknown[] {
  const name = String(command[0] ?? "").toLowerCase();
  if ((name === "eval" || name === "eval_ro") && typeof command[1] === "string") {
    return [command[0], scripts.remember(command[1]), ...command.slice(2)];
  }
  if ((name === "evalsha" || name === "evalsha_ro") && typeof command[1] === "string") {
    return [command[0], scripts.resolve(command[1]), ...command.slice(2)];
  }
  if (name === "script" && String(command[1]).toLowerCase() === "load" && typeof command[2] === "string") {
    return [command[0], command[1], scripts.remember(command[2])];
  }
  return command;
}
