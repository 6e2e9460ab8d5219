// Copyable request examples for the docs page: curl, JavaScript fetch and Python requests, with
// the sheet's real address, tab and column names. The key is a placeholder on public pages; the
// dashboard fills in a key its owner has just been shown.

export type Language = "curl" | "javascript" | "python";

export interface RequestExample {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Absolute URL, already encoded. */
  url: string;
  body?: unknown;
  /** The key to put in the example; a placeholder when not given. */
  apiKey?: string;
}

export const KEY_PLACEHOLDER = "YOUR_API_KEY";
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const pyLiteral = (value: unknown): string => {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (Array.isArray(value)) return `[${value.map(pyLiteral).join(", ")}]`;
  if (typeof value === "object")
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pyLiteral(v)}`)
      .join(", ")}}`;
  return JSON.stringify(value);
};

const LABELS: Record<Language, string> = { curl: "curl", javascript: "JavaScript", python: "Python" };
const ALL: readonly Language[] = ["curl", "javascript", "python"];

/** The request in each language (all three unless narrowed), labelled as a code block's tabs show them. */
export const snippetsFor = (r: RequestExample, languages: readonly Language[] = ALL) =>
  languages.map((language) => ({ language, label: LABELS[language], code: snippet(language, r) }));

export function snippet(language: Language, r: RequestExample): string {
  const hasBody = r.body !== undefined;
  const key = r.apiKey ?? KEY_PLACEHOLDER;
  switch (language) {
    case "curl":
      return [
        `curl${r.method === "GET" ? "" : ` -X ${r.method}`} ${shellQuote(r.url)}`,
        `  -H "X-API-Key: ${key}"`,
        ...(hasBody ? [`  -H "Content-Type: application/json"`, `  -d ${shellQuote(JSON.stringify(r.body))}`] : []),
      ].join(" \\\n");
    case "javascript":
      return [
        `const res = await fetch(${JSON.stringify(r.url)}, {`,
        ...(r.method === "GET" ? [] : [`  method: "${r.method}",`]),
        `  headers: { "X-API-Key": "${key}"${hasBody ? `, "Content-Type": "application/json"` : ""} },`,
        ...(hasBody ? [`  body: JSON.stringify(${JSON.stringify(r.body, null, 2).replace(/\n/g, "\n  ")}),`] : []),
        `});`,
        `const answer = await res.json();`,
        `if (!answer.success) throw new Error(\`\${answer.error}: \${answer.message}\`);`,
        `console.log(answer.data ?? answer.message);`,
      ].join("\n");
    case "python":
      return [
        `import requests`,
        ``,
        `res = requests.${r.method.toLowerCase()}(`,
        `    ${JSON.stringify(r.url)},`,
        `    headers={"X-API-Key": "${key}"},`,
        ...(hasBody ? [`    json=${pyLiteral(r.body)},`] : []),
        `    timeout=10,`,
        `)`,
        `answer = res.json()`,
        `if not answer["success"]:`,
        `    raise RuntimeError(f"{answer['error']}: {answer['message']}")`,
        `print(answer.get("data", answer.get("message")))`,
      ].join("\n");
  }
}
