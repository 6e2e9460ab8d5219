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
function importedFolders(file: string): { specifier: string; folder: string }[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true);
  return importedFiles.flatMap(({ fileName: specifier }) => {
    const target = specifier.startsWith("@/") ? join(root, specifier.slice(2)) : specifier.startsWith(".") ? resolve(dirname(join(root, file)), specifier) : undefined;
    if (!target) return [];
    const [folder] = relative(root, target).split(sep);
    return folder ? [{ specifier, folder }] : [];
  });
}

/** "file imports specifier" for each import of a file under `folder` that reaches a `forbidden` folder. */
function violations(folder: string, forbidden: string[], exempt: (file: string) => boolean = () => false): string[] {
  return productFiles(folder)
    .filter((file) => !exempt(file))
    .flatMap((file) => importedFolders(file).filter((i) => forbidden.includes(i.folder)).map((i) => `${file} imports ${i.specifier}`));
}

describe("layers", () => {
  it("lib/ imports nothing from app/, emulators/ or test support", () => {
    expect(violations("lib", ["app", "emulators", "testing", "e2e", "bench"])).toEqual([]);
  });

  it("db/ imports nothing from lib/, app/, emulators/ or test support", () => {
    expect(violations("db", ["app", "emulators", "testing", "e2e", "bench"])).toEqual([]);
    expect(violations("db", ["lib"])).toEqual([]);
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
