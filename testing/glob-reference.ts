// The `~=` matcher before costs were bounded: a glob walk backtracking to the last star (pattern x
// text steps at worst). Kept as the reference the new matcher is checked and measured against.
export function globReference(value: string): (text: string) => boolean {
  const STAR = Symbol("star");
  const chars = Array.from(value.toLowerCase());
  const p: (string | symbol)[] = [];
  for (let i = 0; i < chars.length; i++)
    p.push(chars[i] === "\\" && chars[i + 1] === "*" ? chars[++i]! : chars[i] === "*" ? STAR : chars[i]!);
  return (text) => {
    const t = Array.from(text.toLowerCase());
    let [i, j, star, mark] = [0, 0, -1, 0];
    while (i < t.length) {
      if (j < p.length && p[j] !== STAR && p[j] === t[i]) [i, j] = [i + 1, j + 1];
      else if (j < p.length && p[j] === STAR) [star, j, mark] = [j, j + 1, i];
      else if (star >= 0) [j, i, mark] = [star + 1, mark + 1, mark + 1];
      else return false;
    }
    while (j < p.length && p[j] === STAR) j++;
    return j === p.length;
  };
}
