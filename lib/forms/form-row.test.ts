import { describe, expect, it } from "vitest";
import type { FormScope } from "@/lib/keys/key-record";
import type { ColumnModel } from "@/lib/sheets/values/tab-model";
import { reservedFields, submissionRow } from "./form-row";

const columns: ColumnModel[] = [
  { name: "id", index: 0, type: "number" },
  { name: "name", index: 1, type: "string" },
  { name: "age", index: 2, type: "number" },
  { name: "member", index: 3, type: "boolean" },
  { name: "topics", index: 4, type: "string" },
];
const scope = (over: Partial<FormScope> = {}): FormScope => ({
  tab: "T",
  origins: ["https://a.example"],
  redirects: [],
  unknownFields: "drop",
  visitorLimit: 10,
  ...over,
});

describe("submissionRow", () => {
  it("types numbers and booleans by the column, joins repeated fields, never writes the form's own or the id", () => {
    const row = submissionRow(
      [
        ["name", "Ada"],
        ["age", "36"],
        ["member", "on"],
        ["topics", "a"],
        ["topics", "b"],
        ["_gotcha", ""],
        ["_redirect", "x"],
        ["id", "9"],
      ],
      scope(),
      columns,
    );
    expect(row).toEqual({ name: "Ada", age: 36, member: true, topics: "a, b" });
  });

  it("keeps text that is not a number as text", () => {
    expect(submissionRow([["age", "thirty"]], scope(), columns)).toEqual({ age: "thirty" });
  });

  it("drops or refuses fields the key does not accept, and never names of the object prototype", () => {
    expect(
      submissionRow(
        [
          ["name", "A"],
          ["age", "3"],
          ["__proto__", "x"],
          ["constructor", "y"],
        ],
        scope({ fields: ["name"] }),
        columns,
      ),
    ).toEqual({ name: "A" });
    expect(() =>
      submissionRow(
        [
          ["name", "A"],
          ["age", "3"],
        ],
        scope({ fields: ["name"], unknownFields: "refuse" }),
        columns,
      ),
    ).toThrow(/"age"/);
    expect(() => submissionRow([["nope", "A"]], scope(), columns)).toThrow(/none of the fields/);
  });

  it("reads the honeypot and the redirect field", () => {
    expect(
      reservedFields([
        ["_gotcha", " "],
        ["name", "a"],
      ]),
    ).toEqual({ spam: false, redirect: undefined });
    expect(
      reservedFields([
        ["_gotcha", "buy now"],
        ["_redirect", "https://x.example/"],
      ]),
    ).toEqual({ spam: true, redirect: "https://x.example/" });
  });
});
