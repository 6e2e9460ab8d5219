// A throwaway Postgres cluster of the test's own (initdb in a temporary directory, its own port),
// so a test can stop the real server and start it again without touching the shared one.
// Runs as the `postgres` system user when the test runs as root (initdb refuses root).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { freePort, untilAnswering } from "./ports";
import { chownSync, existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function binDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root).sort().at(-1);
  return version ? join(root, version, "bin") : undefined;
}

export interface PostgresProcess {
  /** Admin URL (database `postgres`, trust auth). */
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes nothing: the directory is temporary. */
  dispose(): Promise<void>;
}

/** Undefined when Postgres' server binaries are not installed (required on CI). */
export async function postgresProcess(): Promise<PostgresProcess | undefined> {
  const bin = binDir();
  if (!bin || !existsSync(join(bin, "initdb"))) {
    if (process.env.CI) throw new Error("Postgres server binaries are required on CI");
    console.warn("[tests] Postgres server binaries not installed: the database outage test is skipped");
    return undefined;
  }
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) =>
    asRoot ? { cmd: "runuser", args: ["-u", "postgres", "--", cmd, ...args] } : { cmd, args };
  const dir = mkdtempSync(join(tmpdir(), "sheetapi-pg-"));
  if (asRoot)
    chownSync(
      dir,
      Number(spawnSync("id", ["-u", "postgres"]).stdout.toString().trim()),
      Number(spawnSync("id", ["-g", "postgres"]).stdout.toString().trim()),
    );
  const init = run(join(bin, "initdb"), [
    "-D",
    join(dir, "data"),
    "-U",
    "postgres",
    "--auth=trust",
    "-E",
    "UTF8",
    "--no-sync",
  ]);
  const done = spawnSync(init.cmd, init.args, { stdio: "pipe" });
  if (done.status !== 0) throw new Error(`initdb failed: ${done.stderr.toString()}`);
  const port = await freePort();
  let child: ChildProcess | undefined;
  const handle: PostgresProcess = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      const server = run(join(bin, "postgres"), [
        "-D",
        join(dir, "data"),
        "-p",
        String(port),
        "-k",
        dir,
        "-h",
        "127.0.0.1",
        "-c",
        "fsync=off",
      ]);
      // Its own process group: the signal reaches postgres itself, not only runuser.
      child = spawn(server.cmd, server.args, { stdio: "ignore", detached: true });
      await untilAnswering(port);
      await new Promise((r) => setTimeout(r, 300)); // accepting connections, not just listening
    },
    async stop() {
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((r) => child!.once("exit", r));
      process.kill(-child.pid!, "SIGINT"); // fast shutdown: connections are cut, as in a failover
      await exited;
    },
    dispose: () => handle.stop(),
  };
  await handle.start();
  return handle;
}
