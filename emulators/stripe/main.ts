// Runs emulators/stripe on its own:
// `npx tsx emulators/stripe/main.ts --port 12111 --key sk_test_local --price price_starter:Starter:900 --webhook http://localhost:3000/api/stripe/webhook --webhook-secret whsec_local`.
import { parseArgs } from "node:util";
import type { PriceSeed } from "./model";
import { startStripeEmulator } from "./server";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "12111" },
    host: { type: "string", default: "127.0.0.1" },
    key: { type: "string", default: "sk_test_local" },
    /** id:name:amount-in-cents, repeatable: the prices the account sells. */
    price: { type: "string", multiple: true, default: [] },
    webhook: { type: "string" },
    "webhook-secret": { type: "string", default: "whsec_local" },
    /** Comma-separated delays (ms) between delivery attempts; Stripe's own schedule when absent. */
    "retry-delays-ms": { type: "string" },
    verbose: { type: "boolean", default: false },
  },
});

const prices: PriceSeed[] = values.price.map((spec) => {
  const [id, nickname, amount] = spec.split(":");
  if (!id || !nickname || !/^\d+$/.test(amount ?? ""))
    throw new Error(`--price ${spec}: expected id:name:amount-in-cents`);
  return { id, product: `prod_${id.replace(/^price_/, "")}`, nickname, unitAmount: Number(amount) };
});

const emulator = await startStripeEmulator({
  port: Number(values.port),
  host: values.host,
  secretKey: values.key,
  prices,
  webhooks: values.webhook ? [{ url: values.webhook, secret: values["webhook-secret"] }] : [],
  retryDelaysMs: values["retry-delays-ms"]?.split(",").map(Number),
  log: values.verbose ? (line) => console.log(line) : undefined,
});
console.log(`Stripe emulator on ${emulator.url} (${prices.length} prices)`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => void emulator.stop().then(() => process.exit(0)));
}
