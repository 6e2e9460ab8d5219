// USER_ENTERED parsing per locale: what a typed string becomes (value, format) and how the cell
// then shows (FORMATTED_VALUE), and the strings that stay text because Google keeps them text or
// its reading of them is uncertain.
import { describe, expect, it } from "vitest";
import { formatValue, withPattern, type Cell } from "./cells";
import { localeRules } from "./locales";
import { userEnteredCell, type EntryClock } from "./user-entered";

const clock: EntryClock = { timeZone: "Etc/UTC", now: Date.UTC(2025, 5, 1) };
const JAN_2_2024 = 45293;
const FEB_1_2024 = 45323;

function typed(text: string, locale: string, at: EntryClock = clock): Cell & { shown: string } {
  const rules = localeRules(locale);
  const cell = userEnteredCell(text, rules, at);
  const shown =
    typeof cell.value === "number"
      ? formatValue(cell.value, withPattern(cell.format, rules), rules)
      : String(cell.value);
  return { ...cell, shown };
}

/** [typed, value, format type (undefined: Automatic), shown] */
type Case = [string, number | boolean, string | undefined, string];

function expectCases(locale: string, cases: Case[]): void {
  for (const [text, value, type, shown] of cases) {
    const cell = typed(text, locale);
    expect({ text, value: cell.value, type: cell.format?.type, shown: cell.shown }).toEqual({
      text,
      value: expect.closeTo(value as number, 9),
      type,
      shown,
    });
  }
}

function expectBooleans(locale: string, cases: [string, boolean][]): void {
  for (const [text, value] of cases) expect({ text, value: typed(text, locale).value }).toEqual({ text, value });
}

function expectText(locale: string, texts: string[]): void {
  for (const text of texts)
    expect({ text, cell: userEnteredCell(text, localeRules(locale), clock) }).toEqual({ text, cell: { value: text } });
}

describe("en_US", () => {
  it("reads plain, signed and grouped numbers, scientific notation and percents", () => {
    expectCases("en_US", [
      ["42", 42, undefined, "42"],
      ["-1.5", -1.5, undefined, "-1.5"],
      ["+7", 7, undefined, "7"],
      [".5", 0.5, undefined, "0.5"],
      ["1,234.5", 1234.5, "NUMBER", "1,234.50"],
      ["1,234", 1234, "NUMBER", "1,234"],
      ["-1,234,567", -1234567, "NUMBER", "-1,234,567"],
      ["1e3", 1000, "SCIENTIFIC", "1.00E+03"],
      ["1.5E-2", 0.015, "SCIENTIFIC", "1.50E-02"],
      ["-2e5", -200000, "SCIENTIFIC", "-2.00E+05"],
      ["20%", 0.2, "PERCENT", "20%"],
      ["12.5%", 0.125, "PERCENT", "12.50%"],
      ["-5%", -0.05, "PERCENT", "-5%"],
    ]);
  });

  it("reads dollar amounts in the locale's currency format", () => {
    expectCases("en_US", [
      ["$1,234.50", 1234.5, "CURRENCY", "$1,234.50"],
      ["$5", 5, "CURRENCY", "$5.00"],
      ["-$5", -5, "CURRENCY", "-$5.00"],
      ["$0.99", 0.99, "CURRENCY", "$0.99"],
    ]);
  });

  it("reads month-first dates, two-digit years, year-less dates, times and date-times", () => {
    expectCases("en_US", [
      ["1/2/2024", JAN_2_2024, "DATE", "1/2/2024"],
      ["01/02/2024", JAN_2_2024, "DATE", "1/2/2024"],
      ["1/2/24", JAN_2_2024, "DATE", "1/2/2024"],
      ["1/2/29", 47120, "DATE", "1/2/2029"],
      ["1/2/30", 10960, "DATE", "1/2/1930"],
      ["2/29/2024", 45351, "DATE", "2/29/2024"],
      ["3/4", 45720, "DATE", "3/4/2025"],
      ["2024-01-02", JAN_2_2024, "DATE", "2024-01-02"],
      ["1/2/2024 10:30", JAN_2_2024 + 0.4375, "DATE_TIME", "1/2/2024 10:30:00"],
      ["1/2/2024 10:30:15", JAN_2_2024 + (10 * 3600 + 30 * 60 + 15) / 86400, "DATE_TIME", "1/2/2024 10:30:15"],
      ["1/2/2024 10:30 PM", JAN_2_2024 + 0.9375, "DATE_TIME", "1/2/2024 22:30:00"],
      ["2024-01-02 09:45", JAN_2_2024 + 0.40625, "DATE_TIME", "2024-01-02 09:45:00"],
      ["10:30", 0.4375, "TIME", "10:30:00 AM"],
      ["10:30:15", (10 * 3600 + 30 * 60 + 15) / 86400, "TIME", "10:30:15 AM"],
      ["10:30 PM", 0.9375, "TIME", "10:30:00 PM"],
      ["10:30 am", 0.4375, "TIME", "10:30:00 AM"],
      ["12:00 AM", 0, "TIME", "12:00:00 AM"],
      ["12:15 pm", (12 * 60 + 15) / 1440, "TIME", "12:15:00 PM"],
      ["25:30", (25 * 60 + 30) / 1440, "TIME", "25:30:00"],
    ]);
  });

  it("reads TRUE and FALSE in any case", () => {
    expectBooleans("en_US", [
      ["TRUE", true],
      ["true", true],
      ["False", false],
    ]);
    expectText("en_US", ["WAHR", "yes"]);
  });

  it("keeps text that is no number, date or time as the exact string", () => {
    expectText("en_US", [
      "(5)",
      "($5)",
      "1,23",
      "1,2345",
      "1.234,5",
      "5.",
      "1 234",
      "--5",
      "+-5",
      "1e",
      "e5",
      "1e999",
      "Infinity",
      "0x10",
      "$ 5",
      "$-5",
      "5$",
      "€5",
      "5 €",
      "£3",
      "2/30/2024",
      "13/1/2024",
      "1/2/2024x",
      "1/2/124",
      "1/2/5",
      "1-2-2024",
      "1.2.2024",
      "2024-02-30",
      "2024-1-2",
      "2024-01-02T10:30",
      "24:00 PM",
      "13:00 PM",
      "10:60",
      "10:30:60",
      "10:30:15.5",
      "1:5",
      "10 PM",
      "hello",
      " hello ",
      "",
      "  ",
    ]);
  });

  it("parses around surrounding spaces but stores unparsed text untrimmed", () => {
    expect(typed(" 42 ", "en_US").value).toBe(42);
    expect(userEnteredCell(" 1,23 ", localeRules("en_US"), clock)).toEqual({ value: " 1,23 " });
  });

  it("keeps formulas and makes a leading apostrophe text", () => {
    expect(userEnteredCell("=1+1", localeRules("en_US"))).toEqual({ value: "=1+1", formula: true });
    expect(userEnteredCell("'007", localeRules("en_US"))).toEqual({ value: "007" });
    expect(userEnteredCell("'1/2/2024", localeRules("en_US"))).toEqual({ value: "1/2/2024" });
    expect(userEnteredCell(12, localeRules("en_US"))).toEqual({ value: 12 });
  });

  it("takes a year-less date's year where the spreadsheet is", () => {
    const newYearsEve = Date.UTC(2024, 11, 31, 23, 30);
    expect(typed("3/4", "en_US", { timeZone: "Etc/UTC", now: newYearsEve }).shown).toBe("3/4/2024");
    expect(typed("3/4", "en_US", { timeZone: "Europe/Berlin", now: newYearsEve }).shown).toBe("3/4/2025");
  });
});

describe("en_GB", () => {
  it("reads day-first dates, pounds, and 24-hour or AM/PM times", () => {
    expectCases("en_GB", [
      ["1,234.5", 1234.5, "NUMBER", "1,234.50"],
      ["1/2/2024", FEB_1_2024, "DATE", "01/02/2024"],
      ["1/2/24", FEB_1_2024, "DATE", "01/02/2024"],
      ["3/4", 45750, "DATE", "03/04/2025"],
      ["30/1/2024", 45321, "DATE", "30/01/2024"],
      ["2024-02-01", FEB_1_2024, "DATE", "2024-02-01"],
      ["1/2/2024 10:30", FEB_1_2024 + 0.4375, "DATE_TIME", "01/02/2024 10:30:00"],
      ["£3", 3, "CURRENCY", "£3.00"],
      ["-£1,234.5", -1234.5, "CURRENCY", "-£1,234.50"],
      ["10:30", 0.4375, "TIME", "10:30:00"],
      ["10:30 pm", 0.9375, "TIME", "22:30:00"],
    ]);
    expectBooleans("en_GB", [
      ["true", true],
      ["FALSE", false],
    ]);
  });

  it("keeps month-first dates that do not exist day-first, and dollars, as text", () => {
    expectText("en_GB", ["1/30/2024", "$3", "3£", "1.2.2024"]);
  });
});

describe("de_DE", () => {
  it("reads German separators, euros after the amount, dotted dates and 24-hour times", () => {
    expectCases("de_DE", [
      ["24,5", 24.5, undefined, "24,5"],
      ["-24,5", -24.5, undefined, "-24,5"],
      ["1.234,5", 1234.5, "NUMBER", "1.234,50"],
      ["1.234", 1234, "NUMBER", "1.234"],
      ["1,5E-2", 0.015, "SCIENTIFIC", "1,50E-02"],
      ["12,5 %", 0.125, "PERCENT", "12,50%"],
      ["1.234,50 €", 1234.5, "CURRENCY", "1.234,50 €"],
      ["1234,5€", 1234.5, "CURRENCY", "1.234,50 €"],
      ["-5 €", -5, "CURRENCY", "-5,00 €"],
      ["1.2.2024", FEB_1_2024, "DATE", "01.02.2024"],
      ["01.02.24", FEB_1_2024, "DATE", "01.02.2024"],
      ["2024-02-01", FEB_1_2024, "DATE", "2024-02-01"],
      ["1.2.2024 10:30", FEB_1_2024 + 0.4375, "DATE_TIME", "01.02.2024 10:30:00"],
      ["10:30", 0.4375, "TIME", "10:30:00"],
      ["25:30", (25 * 60 + 30) / 1440, "TIME", "25:30:00"],
    ]);
  });

  it("reads WAHR and FALSCH as well as TRUE and FALSE", () => {
    expectBooleans("de_DE", [
      ["WAHR", true],
      ["wahr", true],
      ["FALSCH", false],
      ["Falsch", false],
      ["TRUE", true],
      ["false", false],
    ]);
  });

  it("keeps English separators, dollars, slashed or year-less dates and AM/PM times as text", () => {
    expectText("de_DE", [
      "1,234.5",
      "1.5",
      "1.23",
      "$5",
      "€5",
      "5  €",
      "1/2/2024",
      "1.2.",
      "1.2",
      "31.2.2024",
      "10:30 PM",
      "(5)",
    ]);
  });
});

describe("other locales", () => {
  it("reads fr_FR day-first dates, euros and its narrow no-break space grouping", () => {
    expectCases("fr_FR", [
      ["1\u202f234,5", 1234.5, "NUMBER", "1\u202f234,50"],
      ["3,50 €", 3.5, "CURRENCY", "3,50 €"],
      ["1/2/2024", FEB_1_2024, "DATE", "01/02/2024"],
      ["10:30", 0.4375, "TIME", "10:30:00"],
    ]);
    // VRAI and FAUX are uncertain at Google: text.
    expectText("fr_FR", ["VRAI", "10:30 PM", "1.234,5"]);
  });
});
