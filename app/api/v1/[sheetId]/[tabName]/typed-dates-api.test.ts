// Typed dates from the cells' serial numbers: a display that leaves out the year ("Jan 15",
// "01/07 09:45") still gives the right ISO 8601 date and date-time (with the sheet's time-zone
// offset), and date filters and sorts compare those values. The serial numbers cost one
// values.batchGet per cached copy, only for reads that need them; cached typed reads cost none.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { setLimitStore } from "@/lib/store/store";
import { rowsClient } from "@/testing/rows-client";
import type { TestService } from "@/testing/service";
import { serviceAndStores } from "@/testing/stores";
import { registeredKey } from "@/testing/google";

let svc: TestService;
const stores = await serviceAndStores((s) => (svc = s));

const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
/** Sheets' serial number of a wall-clock date and time. */
const serial = (y: number, m: number, d: number, h = 0, min = 0) =>
  (Date.UTC(y, m - 1, d, h, min) - Date.UTC(1899, 11, 30)) / 86_400_000;

describe.each(stores)("on the %s store", (storeName, makeStore) => {
  let api: ReturnType<typeof rowsClient>;
  let sheetId: string;
  // Sheets calls (Drive's change checks come and go with time).
  const calls = () => Object.fromEntries([...svc.google.calls].filter(([route]) => !route.startsWith("files.")));
  const ids = async (query: string) => {
    const res = await api.list("Events", query);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data as { id: string }[]).map((r) => r.id);
  };

  beforeAll(async () => {
    setLimitStore(makeStore());
    sheetId = String(
      (
        await svc.admin("/spreadsheets", {
          title: `Typed dates ${storeName}`,
          timeZone: "America/New_York",
          members: { [SA]: "writer", "owner@example.com": "owner" },
          tabs: [
            {
              title: "Events",
              rows: [
                ["id", "title", "day", "starts"],
                [1, "Launch", serial(2024, 1, 15), serial(2024, 7, 1, 9, 45)],
                [2, "Kickoff", serial(2023, 12, 5), serial(2023, 12, 5, 18, 30)],
                [3, "Review", serial(2025, 3, 9), serial(2025, 3, 9, 8, 0)],
              ],
              // Displays without a year: the text alone cannot say which year, nor sort across years.
              columnFormats: {
                day: { type: "DATE", pattern: "mmm d" },
                starts: { type: "DATE_TIME", pattern: "dd/mm hh:mm" },
              },
            },
            {
              title: "Plain",
              rows: [
                ["id", "name"],
                [1, "a"],
              ],
            },
          ],
        })
      ).spreadsheetId,
    );
    const user = await createUser({ email: `typed-dates-${storeName}-${randomUUID()}@example.com`, plan: "business" });
    api = rowsClient(sheetId, await registeredKey(user, sheetId));
  });

  it("reads the serial numbers only for a read that needs them, once per cached copy", async () => {
    svc.google.calls.clear();
    const shown = await api.get("Events", "1");
    expect(shown.body.data).toEqual({ id: "1", title: "Launch", day: "Jan 15", starts: "01/07 09:45" });
    expect(calls()).toEqual({ "values.get": 1 });
    const typed = await api.list("Events", "typed=true");
    expect(typed.body.data).toEqual([
      { id: 1, title: "Launch", day: "2024-01-15", starts: "2024-07-01T09:45:00-04:00" },
      { id: 2, title: "Kickoff", day: "2023-12-05", starts: "2023-12-05T18:30:00-05:00" },
      { id: 3, title: "Review", day: "2025-03-09", starts: "2025-03-09T08:00:00-04:00" },
    ]);
    // One values.batchGet of the date columns only, kept with the cached copy.
    expect(calls()).toEqual({ "values.get": 1, "values.batchGet": 1 });
    expect((await api.get("Events", "2", "typed=true")).body.data).toEqual({
      id: 2,
      title: "Kickoff",
      day: "2023-12-05",
      starts: "2023-12-05T18:30:00-05:00",
    });
    expect(await ids("sort=day")).toEqual(["2", "1", "3"]);
    expect(calls()).toEqual({ "values.get": 1, "values.batchGet": 1 });
  });

  it("asks for the values and the serial numbers together when the copy is not cached", async () => {
    await api.create("Events", { title: "Retro" });
    // Written through another instance: this one's copy (the write's read-back here) is out of date.
    await (await import("@/lib/sheets/read/tab-cache")).invalidateSheetData(sheetId, ["Events"]);
    svc.google.calls.clear();
    const typed = await api.list("Events", "typed=true&filter=id<4");
    expect(typed.headers.get("x-cache")).toBe("MISS");
    expect((typed.body.data as { day: string }[]).map((r) => r.day)).toEqual([
      "2024-01-15",
      "2023-12-05",
      "2025-03-09",
    ]);
    expect(calls()).toEqual({ "values.get": 1, "values.batchGet": 1 });
    // A tab without date columns never costs the call.
    svc.google.calls.clear();
    expect((await api.list("Plain", "typed=true")).body.data).toEqual([{ id: 1, name: "a" }]);
    expect(calls()).toEqual({ "values.get": 1 });
  });

  it.each([
    ["sort=day", ["2", "1", "3"]],
    ["sort=day&order=desc", ["3", "1", "2"]],
    ["sort=starts", ["2", "1", "3"]],
    ["filter=day>=2024-01-01", ["1", "3"]],
    ["filter=day<2024-01-01", ["2"]],
    ["filter=day=2025-03-09", ["3"]],
    ["filter=starts>2024-07-01T09:00:00-04:00", ["1", "3"]],
    ["filter=starts<2024-07-01T14:00:00Z", ["1", "2"]],
  ])("compares dates by value: %s", async (query, expected) => {
    expect(await ids(`${query}&filter=id<4`)).toEqual(expected);
  });

  it("lists distinct dates in date order, typed by value", async () => {
    const { callRoute } = await import("@/testing/routes");
    const { GET } = await import("@/app/api/v1/[sheetId]/[tabName]/%5Fdistinct/route");
    const path = `/api/v1/${sheetId}/Events/_distinct?column=day&typed=true&filter=id%3C4`;
    const res = await callRoute(GET, {
      method: "GET",
      path,
      params: { sheetId, tabName: "Events" },
      headers: { "X-API-Key": api.key },
    });
    expect(res.body.data).toEqual(["2023-12-05", "2024-01-15", "2025-03-09"]);
  });

  it("finds the rows of a filtered write by date value, reading the serial numbers beside the values", async () => {
    const { callRoute } = await import("@/testing/routes");
    const { DELETE } = await import("@/app/api/v1/[sheetId]/[tabName]/route");
    svc.google.calls.clear();
    const path = `/api/v1/${sheetId}/Events?filter=${encodeURIComponent("day<2024-01-01")}&dry_run=true`;
    const res = await callRoute(DELETE, {
      method: "DELETE",
      path,
      params: { sheetId, tabName: "Events" },
      headers: { "X-API-Key": api.key },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ matched: 1, deleted: 0, dry_run: true, ids: ["2"] });
    expect(calls()).toEqual({ "values.get": 1, "values.batchGet": 1 });
  });
});
