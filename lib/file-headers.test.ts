// Every source file opens with at most four lines of comment: what it is and the one key why.
// How a mechanism works is told in its folder's README.md or in docs/architecture.md.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
const FOLDERS = ["lib", "app", "db", "emulators", "testing", "e2e", "bench"];
const ROOT_FILES = ["proxy.ts", "instrumentation.ts"];
const MAX_HEADER_LINES = 4;

function sourceFiles(): string[] {
  const inFolders = FOLDERS.flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
      .filter((path) => /\.(ts|tsx|mts|mjs|js)$/.test(path) && !/(^|\/)(node_modules|migrations)\//.test(path))
      .map((path) => `${folder}/${path}`),
  );
  return [...inFolders, ...ROOT_FILES];
}

/** The number of lines in a file's leading comment block (after a shebang or a directive). */
export function headerLines(text: string): number {
  const lines = text.split("\n");
  let i = 0;
  while (
    i < lines.length &&
    (lines[i]!.trim() === "" || lines[i]!.startsWith("#!") || /^["']use (client|server)["'];?$/.test(lines[i]!.trim()))
  )
    i++;
  const first = lines[i]?.trim() ?? "";
  if (first.startsWith("//")) {
    let n = 0;
    while (i + n < lines.length && lines[i + n]!.trim().startsWith("//")) n++;
    return n;
  }
  if (first.startsWith("/*")) {
    let n = 1;
    while (i + n - 1 < lines.length && !lines[i + n - 1]!.includes("*/")) n++;
    return n;
  }
  return 0;
}

describe("file headers", () => {
  it("counts a header's lines", () => {
    expect(headerLines("// a\n// b\nimport x;\n")).toBe(2);
    expect(headerLines('"use client";\n/**\n * a\n */\nexport {};')).toBe(3);
    expect(headerLines("import x;\n// later\n")).toBe(0);
  });

  it(`are at most ${MAX_HEADER_LINES} lines in every source file`, () => {
    const long = sourceFiles()
      .map((file) => ({ file, lines: headerLines(readFileSync(join(root, file), "utf8")) }))
      .filter(({ lines }) => lines > MAX_HEADER_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
