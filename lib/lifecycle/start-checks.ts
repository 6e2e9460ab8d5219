// The server's own check at start, for deployments that run it directly rather than through
// `npm start`: a wrong setting stops the process with one line naming the fix (README.md).
import { config, ConfigError } from "@/lib/env";
import { limitStoreProblem } from "@/lib/store/store-check";
import { databaseProblemAtStart } from "./database-check";
import { log } from "@/lib/log";

export async function checkAtStart(exit: (code: number) => void = (code) => process.exit(code)): Promise<void> {
  let cfg;
  try {
    cfg = config();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    log.fatal(err.message);
    return exit(1);
  }
  // The embedded database has no address to get wrong, and opens once `npm start` hands it over.
  const databaseProblem =
    cfg.database.kind === "postgres"
      ? await databaseProblemAtStart(cfg.database.url, cfg.env.DATABASE_START_WAIT_MS)
      : undefined;
  if (databaseProblem) {
    log.fatal(databaseProblem);
    return exit(1);
  }
  const store = cfg.limitStore;
  const problem = await limitStoreProblem(store);
  if (!problem) return;
  if (problem.cause === "refused") {
    log.fatal(problem.message);
    return exit(1);
  }
  log.warn(`${problem.message} Starting anyway: reads are served uncounted and writes answer 503 until it answers.`);
}
