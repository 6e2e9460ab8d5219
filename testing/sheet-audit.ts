// Reads a tab straight from emulators/google's store (not through the API) and checks what the
// write rules promise (DECISIONS 2, 5-7a) against the answers the clients were given.
import { expect } from "vitest";
import type { GoogleEmulator } from "@/emulators/google/server";

export type Cells = (string | number | boolean | null)[];

/** Rows of a tab as stored, blank rows included, header first. */
export function storedRows(google: GoogleEmulator, spreadsheetId: string, tab: string): Cells[] {
  const sheet = google.store.get(spreadsheetId)!;
  const grid = sheet.tabs.find((t) => t.title === tab)!.rows;
  return Array.from(grid, (r) => (r ?? []).map((c) => (c ? c.value : null)));
}

const blank = (r: Cells) => !r.some((v) => v !== null && v !== "");

/** Non-blank data rows as objects by header name (values as stored). */
export function storedRecords(google: GoogleEmulator, spreadsheetId: string, tab: string): Record<string, string>[] {
  const [header = [], ...rows] = storedRows(google, spreadsheetId, tab);
  return rows
    .filter((r) => !blank(r))
    .map((r) =>
      Object.fromEntries(header.map((h, i) => [String(h), r[i] === null || r[i] === undefined ? "" : String(r[i])])),
    );
}

/** What one client request did, as the client saw it. */
export interface Outcome {
  kind: "create" | "update" | "delete";
  status: number;
  body: Record<string, unknown>;
  /** create: the unique `name` it carried; update/delete: the row id it targeted. */
  name?: string;
  id?: string;
  /** update: the field and value it wrote. */
  field?: string;
  value?: string;
}

/** Every answer the rules allow: 2xx, a definite 4xx/5xx, or 504 saying how to check. */
export function expectHonestAnswers(outcomes: Outcome[]): void {
  for (const o of outcomes) {
    expect(o.body.success, JSON.stringify(o)).toBe(o.status < 300);
    if (o.status === 504) {
      expect(o.body.error).toBe("gateway_timeout");
      expect(String(o.body.message)).toMatch(/outcome is unknown/);
      expect(String(o.body.message)).toMatch(/Check (with GET \/api\/v1\/|by listing)/);
    }
    expect([200, 201, 404, 409, 412, 503, 504], JSON.stringify(o)).toContain(o.status);
  }
}

/**
 * The sheet against the answers: no two rows share an id; a create is in the sheet exactly once
 * when it answered 201, at most once on a 504, never otherwise; an acknowledged delete removed
 * its row and only its row; the rows `untouched` are all still there, as they were.
 */
export function expectSheetMatches(
  records: Record<string, string>[],
  outcomes: Outcome[],
  untouched: Record<string, string>[] = [],
): void {
  const ids = records.map((r) => r.id);
  expect(ids.length, `ids: ${ids.join(",")}`).toBe(new Set(ids).size);
  for (const o of outcomes.filter((x) => x.kind === "create")) {
    const found = records.filter((r) => r.name === o.name);
    if (o.status === 201) {
      expect(found, `create ${o.name}`).toHaveLength(1);
      const given = (o.body.data as { rows: { id: string }[] }).rows.find(
        (r) => (r as unknown as { name: string }).name === o.name,
      );
      expect(found[0]!.id).toBe(given!.id);
    } else if (o.status === 504) expect(found.length).toBeLessThanOrEqual(1);
    else expect(found, `create ${o.name} answered ${o.status}`).toHaveLength(0);
  }
  for (const o of outcomes.filter((x) => x.kind === "delete" && x.status === 200)) {
    expect(ids, `deleted ${o.id}`).not.toContain(o.id);
  }
  for (const row of untouched) expect(records, `untouched row ${row.id}`).toContainEqual(row);
}
