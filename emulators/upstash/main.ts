// Runs emulators/upstash: `npm run emulator:upstash -- --port 8079 --redis redis://127.0.0.1:6379 --token dev`.
import { parseArgs } from "node:util";
import { startUpstashEmulator } from "./server";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: process.env.UPSTASH_EMULATOR_PORT ?? "8079" },
    host: { type: "string", default: "127.0.0.1" },
    redis: { type: "string", default: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" },
    token: { type: "string", default: process.env.UPSTASH_REDIS_REST_TOKEN ?? "local-upstash-token" },
  },
});

const emulator = await startUpstashEmulator({
  port: Number(values.port),
  host: values.host,
  redisUrl: values.redis,
  token: values.token,
});
console.log(`Upstash REST emulator on ${emulator.url} over ${values.redis}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => void emulator.stop().then(() => process.exit(0)));
}
