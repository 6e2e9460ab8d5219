// The release step, `npm run db:migrate`: checks the configuration and the limit store, then
// applies the migrations (db/migrator.ts). A command that puts the service together, like the
// others in lib/cli; the database layer below it reads nothing of lib/.
import { pathToFileURL } from "node:url";
import { ConfigError, loadConfig } from "@/lib/env";
import { limitStoreProblem } from "@/lib/store/store-check";
import { openDatabase } from "@/db/client";
import { describeDatabaseError } from "@/db/database-errors";
import { migrateDatabase } from "@/db/migrator";

async function main() {
  const started = Date.now();
  const cfg = loadConfig();
  // The release step checks the limit store too: a deployment whose store settings are wrong
  // stops here, before any instance starts.
  const storeProblem = await limitStoreProblem(cfg.limitStore);
  if (storeProblem) {
    console.error(storeProblem.message);
    process.exitCode = 1;
    return;
  }
  const handle = openDatabase(cfg.database);
  const target = cfg.database.kind === "postgres" ? cfg.database.url : cfg.database.dir;
  try {
    await migrateDatabase(handle);
    console.log(`Migrations applied to ${handle.kind} in ${Date.now() - started} ms`);
  } catch (err) {
    console.error(describeDatabaseError(err, target));
    process.exitCode = 1;
  } finally {
    await handle.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((err) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
}
