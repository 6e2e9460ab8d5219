// The name of the variable that carries the embedded database's gate file (see db/client.ts). In
// a module of its own so that the start command can name it without loading the database driver
// (importing db/client costs about a second before the server could start).

/**
 * Set by `npm start` for the server, which starts while the start's preparation (migrations, demo
 * seed) still has the embedded database open: PGlite allows one process at a time, so the server
 * opens it only once the preparation removed this file (or died: the file holds its pid).
 */
export const DATABASE_GATE_VAR = "SHEETAPI_DATABASE_GATE";
