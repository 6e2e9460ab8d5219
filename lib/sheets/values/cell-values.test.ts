import { describe, expect, it } from "vitest";
import { comparableTarget, comparableValue, typedValue } from "./cell-values";
import { isoDateTime, parseDisplayedDate } from "./locale-dates";
import { parseDisplayedNumber, parseFilterNumber } from "./locale-numbers";

const de = { locale: "de_DE", timeZone: "Europe/Berlin" };
const fr = { locale: "fr_FR", timeZone: "Europe/Paris" };
const us = { locale: "en_US", timeZone: "America/New_York" };

describe("displayed numbers in the sheet's locale", () => {
  it.each([
    ["en_US", "1,234.5", 1234.5],
    ["en_US", "$24.50", 24.5],
    ["en_US", "$-5.50", -5.5],
    ["en_US", "(1,234.50)", -1234.5],
    ["en_US", "15%", 0.15],
    ["de_DE", "1.234,5", 1234.5],
    ["de_DE", "24,50 €", 24.5],
    ["de_DE", "-24,50 €", -24.5],
    ["de_DE", "12,5%", 0.125],
    ["de_DE", "1,23E+03", 1230],
    ["de_DE", "EUR 1.399,00", 1399],
    ["fr_FR", "1\u202f234,5", 1234.5],
    ["fr_FR", "1\u00a0234,5", 1234.5],
    ["fr_FR", "24,50 €", 24.5],
  ])("%s %s is %d", (locale, text, value) => {
    expect(parseDisplayedNumber(text, locale)?.value).toBe(value);
  });

  it.each([
    ["en_US", "2024-01-15"],
    ["en_US", "A-1001"],
    ["en_US", "12 - 15"],
    ["en_US", "n/a"],
    ["en_US", "1,5"],
    ["de_DE", "1,2,3"],
  ])("%s %s is not a number", (locale, text) => {
    expect(parseDisplayedNumber(text, locale)).toBeUndefined();
  });

  it("reads filter values as JSON numbers first, then as the sheet shows them", () => {
    expect(parseFilterNumber("1234.5", "de_DE")).toBe(1234.5);
    expect(parseFilterNumber("24.5", "de_DE")).toBe(24.5);
    expect(parseFilterNumber("24,5", "de_DE")).toBe(24.5);
    expect(parseFilterNumber("1.234,5", "de_DE")).toBe(1234.5);
  });
});

describe("displayed dates in the sheet's locale", () => {
  it.each([
    ["15.01.2024", "dd.MM.yyyy", "de_DE", [2024, 1, 15, 0, 0]],
    ["17.01.2024 09:45", "dd.MM.yyyy HH:mm", "de_DE", [2024, 1, 17, 9, 45]],
    ["15. Januar 2024", "d. mmmm yyyy", "de_DE", [2024, 1, 15, 0, 0]],
    ["15 janv. 2024", "d mmm yyyy", "fr_FR", [2024, 1, 15, 0, 0]],
    ["1/15/2024 6:30 PM", "M/d/yyyy h:mm AM/PM", "en_US", [2024, 1, 15, 18, 30]],
    ["Monday, January 15, 2024", "dddd, mmmm d, yyyy", "en_US", [2024, 1, 15, 0, 0]],
    // Without a pattern: the locale's short date, or ISO.
    ["15/01/2024", undefined, "fr_FR", [2024, 1, 15, 0, 0]],
    ["1/15/2024 12:00:00", undefined, "en_US", [2024, 1, 15, 12, 0]],
    ["2024-01-15", undefined, "de_DE", [2024, 1, 15, 0, 0]],
  ])("%s (%s, %s)", (text, pattern, locale, [year, month, day, hour, minute]) => {
    expect(parseDisplayedDate(text, pattern, locale)).toMatchObject({ year, month, day, hour, minute });
  });

  it("refuses what is no date", () => {
    expect(parseDisplayedDate("31.02.2024", "dd.MM.yyyy", "de_DE")).toBeUndefined();
    expect(parseDisplayedDate("soon", undefined, "en_US")).toBeUndefined();
  });

  it("writes date-times with the zone's offset at that moment, daylight saving included", () => {
    const wall = (month: number, hour: number) => ({
      year: 2024,
      month,
      day: 15,
      hour,
      minute: 0,
      second: 0,
      hasTime: true,
    });
    expect(isoDateTime(wall(1, 9), "Europe/Berlin")).toBe("2024-01-15T09:00:00+01:00");
    expect(isoDateTime(wall(7, 9), "Europe/Berlin")).toBe("2024-07-15T09:00:00+02:00");
    expect(isoDateTime(wall(7, 9), "America/New_York")).toBe("2024-07-15T09:00:00-04:00");
    expect(isoDateTime(wall(7, 9), "Asia/Kolkata")).toBe("2024-07-15T09:00:00+05:30");
    expect(isoDateTime(wall(7, 9), "Etc/UTC")).toBe("2024-07-15T09:00:00Z");
    expect(isoDateTime(wall(7, 9), "Not/AZone")).toBe("2024-07-15T09:00:00Z");
  });
});

describe("typed values and comparisons by column type", () => {
  it("types numbers, currency, percents, booleans and dates", () => {
    expect(typedValue("1.234,5", { type: "number" }, de)).toBe(1234.5);
    expect(typedValue("24,50 €", { type: "currency" }, de)).toBe(24.5);
    expect(typedValue("15 %", { type: "percent" }, fr)).toBe(0.15);
    expect(typedValue("FALSE", { type: "boolean" }, de)).toBe(false);
    expect(typedValue("15.01.2024", { type: "date", pattern: "dd.MM.yyyy" }, de)).toBe("2024-01-15");
    expect(typedValue("17.01.2024 09:45", { type: "datetime", pattern: "dd.MM.yyyy HH:mm" }, de)).toBe(
      "2024-01-17T09:45:00+01:00",
    );
    expect(typedValue("1/15/2024", { type: "datetime" }, us)).toBe("2024-01-15T00:00:00-05:00");
    expect(typedValue("unknown", { type: "date" }, de)).toBe("unknown");
    expect(typedValue("", { type: "number" }, de)).toBeNull();
  });

  it("compares dates by the moment they name, and filter dates given with an offset in the sheet's zone", () => {
    const column = { type: "datetime" as const, pattern: "dd.MM.yyyy HH:mm" };
    const cell = comparableValue("17.06.2024 12:00", column, de)!;
    expect(comparableTarget("2024-06-17T10:00:00Z", column, de)).toBe(cell);
    expect(comparableTarget("2024-06-17T12:00", column, de)).toBe(cell);
    expect(comparableTarget("17.06.2024 12:00", column, de)).toBe(cell);
  });
});
