// `~=`: equal ignoring case, with `*` standing for any run of characters (`name~=desk*` starts
// with "desk", `*lamp` ends with it, `*oak*` contains it); `\*` is a literal star. Case is folded
// the Unicode way (`~=CAFÉ` matches "café"); the text compared is the cell as the sheet shows it.
// Matched by the linear-backtracking glob walk, never a regular expression: a pattern such as
// `*a*a*a*a*b` against a long cell costs at most pattern x text steps, not exponential time.
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
