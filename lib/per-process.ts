// State that must exist once per process. Next.js bundles route handlers, pages and server
// actions apart, each with its own copy of a module, so state in a module variable would be split
// between them (a plan change made by an action would not reach the routes, a page could not
// flush what the routes counted, two PGlite instances could open one directory).
const registry = ((globalThis as typeof globalThis & { __sheetapi?: Map<string, unknown> }).__sheetapi ??= new Map());

/** The process's one `name`, made by `init` on first use. */
export function perProcess<T>(name: string, init: () => T): T {
  if (!registry.has(name)) registry.set(name, init());
  return registry.get(name) as T;
}
