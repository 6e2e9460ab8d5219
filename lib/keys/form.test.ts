import { describe, expect, it } from "vitest";
import { formKeySettings, normalizeRedirect } from "./form";

describe("form key settings", () => {
  it("normalises origins and thank-you addresses and applies defaults", () => {
    expect(
      formKeySettings({
        tab: " Signups ",
        origins: ["HTTPS://Club.Example.com/"],
        redirects: ["https://club.example.com/thanks#x"],
      }),
    ).toEqual({
      tab: "Signups",
      origins: ["https://club.example.com"],
      redirects: ["https://club.example.com/thanks"],
      fields: null,
      unknownFields: "drop",
      visitorLimit: 10,
      message: null,
    });
  });

  it("refuses what a form key cannot be", () => {
    expect(() => formKeySettings({ origins: ["https://a.example"] })).toThrow(/one tab/);
    expect(() => formKeySettings({ tab: "T", origins: [] })).toThrow(/origin/);
    expect(() => formKeySettings({ tab: "T", origins: ["https://a.example"], fields: ["_gotcha"] })).toThrow(/_/);
    expect(() => formKeySettings({ tab: "T", origins: ["https://a.example"], unknownFields: "keep" })).toThrow(
      /dropped or refused/,
    );
    expect(() => normalizeRedirect("javascript:alert(1)")).toThrow();
    expect(() => normalizeRedirect("https://user:pw@a.example/")).toThrow();
    expect(() => normalizeRedirect("/thanks")).toThrow();
  });
});
