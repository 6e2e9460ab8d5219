// `~=`: equal ignoring case (Unicode folding), `*` for any run of characters, `\*` a literal star.
// A linear glob walk, never a regular expression, so no pattern costs exponential time (README.md).
const STAR = Symbol("star");
type Token = string | typeof STAR;

function tokens(value: string): Token[] {
  const out: Token[] = [];
  const chars = Array.from(value.toLowerCase());
  for (let i = 0; i < chars.length; i++) {
    if (chars[i] === "\\" && chars[i + 1] === "*") out.push(chars[++i]!);
    else out.push(chars[i] === "*" ? STAR : chars[i]!);
  }
  return out;
}

function globMatch(pattern: Token[], text: string[]): boolean {
  let i = 0;
  let j = 0;
  let star = -1;
  let mark = 0;
  while (i < text.length) {
    if (j < pattern.length && pattern[j] !== STAR && pattern[j] === text[i]) {
      i++;
      j++;
    } else if (j < pattern.length && pattern[j] === STAR) {
      star = j++;
      mark = i;
    } else if (star >= 0) {
      j = star + 1;
      i = ++mark;
    } else {
      return false;
    }
  }
  while (j < pattern.length && pattern[j] === STAR) j++;
  return j === pattern.length;
}

export function likePattern(value: string): { test(text: string): boolean } {
  const pattern = tokens(value);
  return { test: (text) => globMatch(pattern, Array.from(text.toLowerCase())) };
}
