import { describe, expect, it } from "vitest";
import { formSnippet } from "./snippet";

describe("formSnippet", () => {
  it("has a label and a typed input per accepted column, the honeypot, and no id", () => {
    const html = formSnippet({
      action: "https://api.example.com/f/shf_abc",
      columns: [
        { name: "id", type: "number" },
        { name: "name", type: "string" },
        { name: "email", type: "string" },
        { name: "age", type: "number" },
        { name: "member", type: "boolean" },
        { name: "joined", type: "date" },
        { name: "secret", type: "string" },
      ],
      fields: ["name", "email", "age", "member", "joined"],
    });
    expect(html).toMatch(/^<form action="https:\/\/api.example.com\/f\/shf_abc" method="post">/);
    expect(html).toContain('<label for="f0">name</label>');
    expect(html).toContain('<input type="email" id="f1" name="email">');
    expect(html).toContain('<input type="number" step="any" id="f2" name="age">');
    expect(html).toContain('<input type="checkbox" id="f3" name="member" value="true">');
    expect(html).toContain('<input type="date" id="f4" name="joined">');
    expect(html).toContain('name="_gotcha"');
    expect(html).not.toContain('name="id"');
    expect(html).not.toContain("secret");
  });

  it("escapes column names", () => {
    expect(formSnippet({ action: "/f/k", columns: [{ name: 'a"<b>', type: "string" }], fields: null })).toContain(
      'name="a&quot;&lt;b&gt;"',
    );
  });
});
