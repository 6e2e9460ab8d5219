// The server's stop (lib/lifecycle/shutdown.ts) with its real steps: the webhook queue, the
// process's database and the process's exit. Apart from shutdown.ts so tests can pass their own.
import { installShutdown } from "./shutdown";

export function installServerShutdown(): void {
  installShutdown({
    stopWorkers: async () => (await import("@/lib/webhooks/queue")).stopQueue(),
    closeDatabase: async () => (await import("@/db/client")).closeDatabase(),
    exit: (code) => process.exit(code),
  });
}
