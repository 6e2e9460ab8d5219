// Every "DECISIONS <n>" the code and docs cite names a heading of docs/decisions.md, so a reader
// can follow it: single numbers, ranges ("5-7a": 5, 6, 7 and 7a) and lists ("18, 19"), also
// when a comment wraps between the word and the number.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
const FOLDERS = ["lib", "app", "db", "emulators", "testing", "e2e", "bench", "docs", "scripts"];
const ROOT_FILES = ["README.md", "proxy.ts", "instrumentation.ts"];
const TEXT = /\.(ts|tsx|mts|mjs|cjs|js|sql|md|css|sh|ya?ml)$/;
const WORD = "DECISIONS";
// The word, then comment marks or spaces (a wrapped line), then numbers joined by "-" or ",".
const CITATION = new RegExp(`${WORD}(?:[\\s/*#]|--)*(\\d+[a-z]?(?:\\s*[-,]\\s*\\d+[a-z]?)*)`, "g");
const HEADING = /^#{2,6} (\d+[a-z]?)\. \S/gm;

function files(): string[] {
  const inFolders = FOLDERS.filter((folder) => existsSync(join(root, folder))).flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
      .filter((path) => TEXT.test(path) && !path.split(sep).some((part) => part === "node_modules" || part === ".next"))
      .map((path) => join(folder, path).split(sep).join("/")),
  );
  return [...inFolders, ...ROOT_FILES.filter((file) => existsSync(join(root, file)))];
}

/** The entry numbers a citation's number part names: "5-7a" is 5, 6, 7 and 7a. */
function citedNumbers(part: string): string[] {
  return part.split(",").flatMap((item) => {
    const [from, to] = item.split("-").map((n) => n.trim());
    if (!to) return [from!];
    const numbers = new Set([from!]);
    for (let n = parseInt(from!, 10); n <= parseInt(to, 10); n++) numbers.add(String(n));
    return [...numbers.add(to)];
  });
}

/** "file:line cites N" for each number cited in `text` that `headings` does not hold. */
function unknownCitations(file: string, text: string, headings: Set<string>): string[] {
  return [...text.matchAll(CITATION)].flatMap((match) => {
    const line = text.slice(0, match.index).split("\n").length;
    return citedNumbers(match[1]!)
      .filter((n) => !headings.has(n))
      .map((n) => `${file}:${line} cites ${WORD} ${n}`);
  });
}

const decisions = readFileSync(join(root, "docs", "decisions.md"), "utf8");
const headingNumbers = [...decisions.matchAll(HEADING)].map(([, n]) => n!);
const headings = new Set(headingNumbers);

describe("docs/decisions.md", () => {
  it("numbers each entry once, in headings that can be linked", () => {
    expect(headingNumbers.length).toBeGreaterThan(20);
    expect(headingNumbers.filter((n, i) => headingNumbers.indexOf(n) !== i)).toEqual([]);
    // The entries cited with a letter are there too.
    for (const n of ["7a", "12a", "18a"]) expect(headings).toContain(n);
  });

  it("has a heading for every number the code and the docs cite", () => {
    const cited = files().map((file) => [file, readFileSync(join(root, file), "utf8")] as const);
    const citing = cited.filter(([, text]) => text.match(CITATION));
    expect(citing.length).toBeGreaterThan(40);
    expect(cited.flatMap(([file, text]) => unknownCitations(file, text, headings))).toEqual([]);
  });

  it("is the decisions file the code and the docs name, not one outside the repository", () => {
    const named = files().filter((file) => readFileSync(join(root, file), "utf8").includes(`${WORD}.md`));
    expect(named).toEqual([]);
  });

  it("lands a docs link to an entry on that entry's own heading", () => {
    const wrong = readdirSync(join(root, "docs"))
      .filter((page) => page.endsWith(".md"))
      .flatMap((page) => [
        ...readFileSync(join(root, "docs", page), "utf8").matchAll(
          new RegExp(`\\[${WORD} (\\d+[a-z]?)\\]\\(decisions\\.md#([^)]*)\\)`, "g"),
        ),
      ])
      .filter(([, n, anchor]) => !anchor!.startsWith(`${n}-`))
      .map(([link]) => link);
    expect(wrong).toEqual([]);
  });

  it("reads ranges, lists and wrapped comments, and reports a number it does not have", () => {
    expect(citedNumbers("5-7a")).toEqual(["5", "6", "7", "7a"]);
    expect(citedNumbers("14-16, 18a")).toEqual(["14", "15", "16", "18a"]);
    expect(citedNumbers("18, 19")).toEqual(["18", "19"]);
    const sample = [`// the guard (${WORD}`, `// 18a): one attempt`, `-- ${WORD} 7a and ${WORD} 2, 5-7b`].join("\n");
    expect(unknownCitations("x.ts", sample, headings)).toEqual([`x.ts:3 cites ${WORD} 7b`]);
    expect(unknownCitations("x.ts", `${WORD} 99, as read`, headings)).toEqual([`x.ts:1 cites ${WORD} 99`]);
  });
});
