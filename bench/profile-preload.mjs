// Loaded into every Node.js process of a profiled `npm start` (NODE_OPTIONS=--import): in the
// Next.js server only, SIGUSR2 starts V8's sampling profiler for PROFILE_MS and writes the
// profile to PROFILE_DIR/<pid>.cpuprofile. The other processes are left as they are (SIGUSR2
// would end them: it is sent to the server alone).
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { join } from "node:path";

const { PROFILE_DIR, PROFILE_MS = "10000", PROFILE_INTERVAL_US = "200" } = process.env;
const isServer =
  process.argv.some((arg) => /next[\\/]dist[\\/](bin[\\/]next|server[\\/]lib[\\/]start-server)/.test(arg)) &&
  !process.argv.includes("build");

if (PROFILE_DIR && isServer) {
  const session = new Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: Number(PROFILE_INTERVAL_US) });
  process.on("SIGUSR2", () => {
    session.post("Profiler.start");
    setTimeout(() => {
      session.post("Profiler.stop", (err, result) => {
        if (!err) writeFileSync(join(PROFILE_DIR, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
      });
    }, Number(PROFILE_MS)).unref();
  });
}
