// GET /api/{sheetId}/events: its query parameters are checked before anything is read.
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { listEvents } from "./events-api";

const refusal = (query: string) =>
  listEvents("sheet", new URLSearchParams(query)).then(
    () => undefined,
    (e: unknown) => e,
  );

describe("the events list's parameters", () => {
  it("refuses a parameter sent twice, as the rows API does", async () => {
    for (const [query, name] of [
      ["after=1&after=2", "after"],
      ["limit=5&limit=500", "limit"],
      ["tab=A&tab=B", "tab"],
      ["type=row.created&type=row.deleted", "type"],
    ]) {
      const err = await refusal(query!);
      expect(err, query).toBeInstanceOf(ApiError);
      expect(err, query).toMatchObject({
        code: "validation_error",
        message: `The query parameter "${name}" was sent 2 times; it takes one value.`,
      });
    }
  });

  it("refuses unknown names and values out of range", async () => {
    expect(await refusal("afterr=1")).toMatchObject({
      code: "validation_error",
      message: 'Unknown query parameter "afterr" (allowed: after, limit, tab, type).',
    });
    expect(await refusal("limit=0")).toMatchObject({
      code: "validation_error",
      message: "limit must be an integer from 1 to 1000.",
    });
  });
});
