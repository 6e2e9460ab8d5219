// `~=`: equal ignoring case, with `*` standing for any run of characters (`name~=desk*` starts
// with "desk", `*lamp` ends with it, `*oak*` contains it); `\*` is a literal star. Case is folded
// the Unicode way (`~=CAFÉ` matches "café"); the text compared is the cell as the sheet shows it.
// Linear in the cell: the parts between stars match as prefix, suffix and, in order, leftmost.
import { finder } from "./text-search";

export interface LikePattern {
  test(text: string): boolean;
  /** The same on text already folded with toLowerCase (a column's folded values, kept once). */
  testFolded(folded: string): boolean;
}

/** The pattern's literal parts, split on its unescaped stars, folded. */
export function likeSegments(value: string): string[] {
  const folded = value.toLowerCase();
  const segments: string[] = [];
  let current = "";
  for (let i = 0; i < folded.length; i++) {
    const ch = folded[i]!;
    if (ch === "\\" && folded[i + 1] === "*") current += folded[++i];
    else if (ch === "*") {
      segments.push(current);
      current = "";
    } else current += ch;
  }
  segments.push(current);
  return segments;
}

const high = (code: number) => code >= 0xd800 && code <= 0xdbff;
const low = (code: number) => code >= 0xdc00 && code <= 0xdfff;
/** Whether `at` falls inside a surrogate pair: characters are code points, as the cell shows them. */
const inPair = (text: string, at: number) =>
  at > 0 && at < text.length && high(text.charCodeAt(at - 1)) && low(text.charCodeAt(at));

function matchSegments(
  segments: string[],
  finders: ReturnType<typeof finder>[],
  text: string,
  minLength: number,
): boolean {
  if (segments.length === 1) return text === segments[0];
  if (text.length < minLength) return false;
  const first = segments[0]!;
  const last = segments[segments.length - 1]!;
  const end = text.length - last.length;
  if (!text.startsWith(first) || inPair(text, first.length) || !text.endsWith(last) || inPair(text, end)) return false;
  let from = first.length;
  for (let s = 1; s < segments.length - 1; s++) {
    const part = segments[s]!;
    const find = finders[s]!;
    // The leftmost place is always the best: it leaves the most text for the parts after it.
    let at = find(text, from);
    while (at >= 0 && (inPair(text, at) || inPair(text, at + part.length))) at = find(text, at + 1);
    if (at < 0 || at + part.length > end) return false;
    from = at + part.length;
  }
  return true;
}

export function likePattern(value: string): LikePattern {
  const segments = likeSegments(value);
  const minLength = segments.reduce((n, s) => n + s.length, 0);
  const finders = segments.map(finder);
  const testFolded = (folded: string) => matchSegments(segments, finders, folded, minLength);
  return { test: (text) => testFolded(text.toLowerCase()), testFolded };
}
