// A throwaway redis-server of the test's own, on a free port, that a test can stop and start
// again to see what the service does while its limit store is gone.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { freePort, untilAnswering } from "./ports";

const hasRedisServer = () => spawnSync("redis-server", ["--version"]).status === 0;

export interface RedisProcess {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** Undefined when redis-server is not installed (required on CI, where .ci/run installs it). */
export async function redisProcess(): Promise<RedisProcess | undefined> {
  if (!hasRedisServer()) {
    if (process.env.CI) throw new Error("redis-server is required on CI");
    console.warn("[tests] redis-server not installed: the store outage tests are skipped");
    return undefined;
  }
  const port = await freePort();
  let child: ChildProcess | undefined;
  const handle: RedisProcess = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn(
        "redis-server",
        ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        { stdio: "ignore" },
      );
      await untilAnswering(port, 50);
    },
    async stop() {
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((r) => child!.once("exit", r));
      child.kill("SIGKILL");
      await exited;
    },
  };
  await handle.start();
  return handle;
}
