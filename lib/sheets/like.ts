// `~=`: equal ignoring case, with `*` standing for any run of characters (`name~=desk*` starts
// with "desk", `*lamp` ends with it, `*oak*` contains it); `\*` is a literal star. Case is folded
// the Unicode way (`~=CAFÉ` matches "café"); the text compared is the cell as the sheet shows it.
const SPECIAL = /[.*+?^${}()|[\]\\]/g;

export function likePattern(value: string): RegExp {
  const parts: string[] = [];
  let literal = "";
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (ch === "\\" && value[i + 1] === "*") {
      literal += "*";
      i++;
    } else if (ch === "*") {
      parts.push(literal.replace(SPECIAL, "\\$&"), ".*");
      literal = "";
    } else {
      literal += ch;
    }
  }
  parts.push(literal.replace(SPECIAL, "\\$&"));
  return new RegExp(`^${parts.join("")}$`, "isu");
}
