// The docs' copyable examples: every language from one request, the key where the header says.
import { describe, expect, it } from "vitest";
import { KEY_PLACEHOLDER, snippetsFor } from "./snippets";

const create = {
  method: "POST" as const,
  url: "https://api.example.com/api/v1/abc/Team%20Members",
  body: { name: "Ada", active: true },
};

describe("snippetsFor", () => {
  it("gives curl, JavaScript and Python by default, labelled as the tabs show them", () => {
    expect(snippetsFor(create).map((s) => [s.language, s.label])).toEqual([
      ["curl", "curl"],
      ["javascript", "JavaScript"],
      ["python", "Python"],
    ]);
  });

  it("keeps the languages asked for, in that order", () => {
    expect(snippetsFor(create, ["javascript", "curl"]).map((s) => s.language)).toEqual(["javascript", "curl"]);
  });

  it("sends the key in X-API-Key and the body as JSON", () => {
    const [curl] = snippetsFor(create, ["curl"]);
    expect(curl!.code).toBe(
      [
        "curl -X POST 'https://api.example.com/api/v1/abc/Team%20Members'",
        `  -H "X-API-Key: ${KEY_PLACEHOLDER}"`,
        '  -H "Content-Type: application/json"',
        `  -d '{"name":"Ada","active":true}'`,
      ].join(" \\\n"),
    );
    expect(snippetsFor({ ...create, apiKey: "shk_abc" }, ["javascript"])[0]!.code).toContain('"X-API-Key": "shk_abc"');
  });
});
