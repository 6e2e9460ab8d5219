import { describe, expect, it } from "vitest";
import { acceptedFormat } from "./negotiate";
import { csvField } from "@/lib/sheets/read/csv";

describe("acceptedFormat", () => {
  it.each([
    [null, "json"],
    ["text/csv", "csv"],
    ["text/csv;q=0.9, application/json;q=0.5", "csv"],
    ["application/json, text/csv", "json"],
    ["text/*", "csv"],
    ["*/*", "json"],
    ["text/html,application/xhtml+xml,*/*;q=0.8", "json"],
    ["text/csv;q=0", "json"],
  ])("%s -> %s", (accept, format) => expect(acceptedFormat(accept)).toBe(format));
});

describe("csvField", () => {
  it.each([
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ["=1+2", "'=1+2"],
    ["+33 1 23", "'+33 1 23"],
    ["-12.5", "-12.5"],
    ["@user", "'@user"],
    [null, ""],
    [3.5, "3.5"],
  ])("%s", (value, out) => expect(csvField(value)).toBe(out));
});
