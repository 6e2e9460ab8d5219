// One clear line for the usual ways a database connection fails. Apart from the migrator, whose
// module resolves its folder on load: the server bundle imports this without it.
export function describeDatabaseError(err: unknown, target: string): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  const message = e.cause?.message ?? e.message ?? String(err);
  const safeTarget = target.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
  if (code === "ECONNREFUSED") return `Cannot reach the database at ${safeTarget}: connection refused.`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return `Cannot reach the database at ${safeTarget}: host not found.`;
  if (code === "CONNECT_TIMEOUT")
    return `Cannot reach the database at ${safeTarget}: no answer within the connect timeout.`;
  if (code === "42P01")
    return `The database at ${safeTarget} lacks this version's tables: run the release step (npm run db:migrate) first.`;
  if (code === "3D000") return `The database named in ${safeTarget} does not exist.`;
  if (code === "28P01" || code === "28000") return `The database at ${safeTarget} refused the credentials.`;
  return `Database error at ${safeTarget}: ${message.split("\n")[0]}`;
}
