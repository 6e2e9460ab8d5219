// Runs emulators/google on its own: `npm run emulator:google -- --port 4010 --data .data/google.json`.
import { parseArgs } from "node:util";
import { DEMO_SPREADSHEET_ID } from "./seed";
import { startGoogleEmulator } from "./server";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: process.env.GOOGLE_EMULATOR_PORT ?? "4010" },
    host: { type: "string", default: "127.0.0.1" },
    data: { type: "string" },
    "service-account": { type: "string" },
    verbose: { type: "boolean", default: false },
    /** How long Drive's modifiedTime lags edits; default about 3 minutes, as Google's does. */
    "modified-time-lag-ms": { type: "string" },
  },
});

const emulator = await startGoogleEmulator({
  port: Number(values.port),
  host: values.host,
  dataFile: values.data,
  modifiedTimeLagMs: values["modified-time-lag-ms"] === undefined ? undefined : Number(values["modified-time-lag-ms"]),
  serviceAccountEmail: values["service-account"],
  log: values.verbose ? (line) => console.log(line) : undefined,
});
console.log(`Google emulator on ${emulator.url} (demo spreadsheet ${DEMO_SPREADSHEET_ID})`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => void emulator.stop().then(() => process.exit(0)));
}
