// Stripe's request bodies and query strings: application/x-www-form-urlencoded with bracketed
// keys (`line_items[0][price]=...`, `metadata[plan]=...`, `expand[]=...`), as its clients send them.

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type Form = { [key: string]: FormValue };

/** Nested objects and arrays from bracketed keys; numeric or empty indexes make arrays. */
export function parseForm(text: string): Form {
  const root: Form = Object.create(null) as Form;
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, "").split("[");
    let node: Form | FormValue[] = root;
    for (let i = 0; i < path.length; i++) {
      const name = path[i]!;
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d*$/.test(path[i + 1]!);
      if (Array.isArray(node)) {
        const index = name === "" ? node.length : Number(name);
        if (last) node[index] = value;
        else node = (node[index] ??= nextIsIndex ? [] : (Object.create(null) as Form)) as Form | FormValue[];
      } else if (last) {
        node[name] = value;
      } else {
        const existing = node[name];
        node = (
          typeof existing === "object" ? existing : (node[name] = nextIsIndex ? [] : (Object.create(null) as Form))
        ) as Form | FormValue[];
      }
    }
  }
  return root;
}

export function text(form: Form, name: string): string | undefined {
  const value = form[name];
  return typeof value === "string" ? value : undefined;
}
