// The house's layers, checked: lib/ is the product and imports nothing from the routes (app/), the
// emulators or test support; db/ sits below lib/ and imports none of those nor lib/. Every kind of
// import counts (type-only, re-exports, dynamic): a type import still ties a file to its source.
// Tests (*.test.ts) may import anything.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;

function productFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((path) => SOURCE.test(path) && !/\.test\.tsx?$/.test(path) && !path.split(sep).includes("node_modules"))
    .map((path) => join(folder, path).split(sep).join("/"));
}

/** The top folder each import of `file` reaches into ("lib", "app", ...), or undefined for a package. */
function importedFolders(file: string): { specifier: string; folder: string; target: string }[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true);
  return importedFiles.flatMap(({ fileName: specifier }) => {
    const target = specifier.startsWith("@/")
      ? join(root, specifier.slice(2))
      : specifier.startsWith(".")
        ? resolve(dirname(join(root, file)), specifier)
        : undefined;
    if (!target) return [];
    const path = relative(root, target).split(sep).join("/");
    const [folder] = path.split("/");
    return folder ? [{ specifier, folder, target: path }] : [];
  });
}

/** "file imports specifier" for each import of a file under `folder` that reaches a `forbidden` folder. */
function violations(folder: string, forbidden: string[], exempt: (file: string) => boolean = () => false): string[] {
  return productFiles(folder)
    .filter((file) => !exempt(file))
    .flatMap((file) =>
      importedFolders(file)
        .filter((i) => forbidden.includes(i.folder))
        .map((i) => `${file} imports ${i.specifier}`),
    );
}

/**
 * The floors of lib/, bottom first: a file may import from its own floor's unit or any floor
 * below, never above. A unit is a folder of lib/ (lib/sheets/<part> each on its own floor) or a
 * file at lib/'s root. Units on one line share a floor and import none of each other.
 */
const FLOORS: string[][] = [
  ["errors", "emulator-defaults", "per-process", "deadline", "moment-text", "token-crypto", "api-key", "plans"],
  ["env"],
  ["service-info", "observability"],
  ["log"],
  ["http"],
  ["store"],
  ["limits"],
  ["abuse", "google"],
  ["sheets/values"],
  ["webhooks"],
  ["lifecycle"],
  ["usage"],
  ["sheets"],
  ["sheets/access"],
  ["sheets/read"],
  ["keys"],
  ["accounts", "sheets/write"],
  ["sheets/registration"],
  ["auth", "billing"],
  ["docs", "health", "cron", "forms"],
  ["routes"],
  ["cli"],
];

/** The floor unit of a lib/ path: "sheets/read" for lib/sheets/read/x.ts, "env" for lib/env.ts. */
function unitOf(path: string): string {
  const parts = path.split("/").slice(1);
  if (parts.length === 1) return parts[0]!.replace(/\.(ts|tsx|mts|mjs|d\.mts)$/, "");
  if (parts[0] === "sheets" && parts.length > 2) return `sheets/${parts[1]}`;
  return parts[0]!;
}

function upwardImports(): string[] {
  const floorOf = new Map(FLOORS.flatMap((units, floor) => units.map((unit) => [unit, floor] as const)));
  return productFiles("lib").flatMap((file) => {
    const from = unitOf(file);
    return importedFolders(file).flatMap(({ specifier, target }) => {
      if (!target.startsWith("lib/")) return [];
      const to = unitOf(target);
      if (to === from) return [];
      const [a, b] = [floorOf.get(from), floorOf.get(to)];
      if (a === undefined || b === undefined) return [`${file}: ${a === undefined ? from : to} is on no floor`];
      return b >= a ? [`${file} (${from}) imports ${specifier} (${to}) on the same or a higher floor`] : [];
    });
  });
}

/** What opens or speaks to the database: its client, the query builder and the drivers. */
const DATABASE = (specifier: string, target: string | undefined) =>
  target === "db/client" || /^(drizzle-orm|postgres|@electric-sql\/pglite)(\/|$)/.test(specifier);

/**
 * Files outside db/ that may reach the database client, each for a reason of its own (none of
 * them runs a query of the product's): every other one goes through db/queries/.
 */
const DATABASE_EXCEPTIONS = new Map([
  ["lib/auth/auth.ts", "Auth.js's Drizzle adapter runs its own queries on the client"],
  ["lib/cli/migrate.ts", "opens a database of its own to migrate it"],
  ["lib/cli/prepare.ts", "opens a database of its own to migrate and seed it before the server starts"],
  ["lib/cli/worker.ts", "closes the process's database when the worker stops"],
  ["lib/lifecycle/server-stop.ts", "closes the process's database when the server stops"],
  ["lib/webhooks/queue.ts", "pg-boss runs its own SQL over the client's connection (or address)"],
]);

/** "file imports specifier" for each file of the product outside db/ that reaches the database. */
function databaseImports(): string[] {
  // The product's code (test support, benchmarks and e2e set databases up as they need).
  const files = [
    ...["app", "lib", "emulators"].flatMap(productFiles),
    ...readdirSync(root).filter((f) => SOURCE.test(f) && !/\.config\./.test(f)),
  ];
  return files.flatMap((file) => {
    const targets = new Map(importedFolders(file).map((i) => [i.specifier, i.target]));
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true);
    return importedFiles
      .filter(({ fileName }) => DATABASE(fileName, targets.get(fileName)))
      .map(({ fileName }) => `${file} imports ${fileName}`);
  });
}

describe("layers", () => {
  it("lib/'s floors: every import runs down, none across or up", () => {
    expect(upwardImports()).toEqual([]);
  });

  it("every unit of lib/ is on exactly one floor", () => {
    const units = new Set(productFiles("lib").map(unitOf));
    const listed = FLOORS.flat();
    expect(listed.length).toBe(new Set(listed).size);
    expect([...units].filter((unit) => !listed.includes(unit)).sort()).toEqual([]);
  });

  it("lib/ imports nothing from app/, emulators/ or test support", () => {
    expect(violations("lib", ["app", "emulators", "testing", "e2e", "bench"])).toEqual([]);
  });

  it("db/ imports nothing from lib/, app/, emulators/ or test support", () => {
    expect(violations("db", ["app", "emulators", "testing", "e2e", "bench"])).toEqual([]);
    expect(violations("db", ["lib"])).toEqual([]);
  });

  it("only db/queries/ (and db/ itself) reach the database, but for the named exceptions", () => {
    const found = databaseImports();
    expect(found.filter((line) => !DATABASE_EXCEPTIONS.has(line.split(" ")[0]!))).toEqual([]);
    // Each exception still needs its exemption (one that no longer does is dropped from the list).
    expect(
      [...DATABASE_EXCEPTIONS.keys()].filter((file) => !found.some((line) => line.startsWith(`${file} `))),
    ).toEqual([]);
  });

  it("sees every kind of import, in code and not in comments", () => {
    const seen = (text: string) => ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
    const text = [
      'import type { A } from "@/app/a";',
      'export { B } from "../emulators/b";',
      'const c = await import("@/app/c");',
      '// import { D } from "@/app/d";',
      'import "./e";',
    ].join("\n");
    expect(seen(text)).toEqual(["@/app/a", "../emulators/b", "@/app/c", "./e"]);
  });
});
