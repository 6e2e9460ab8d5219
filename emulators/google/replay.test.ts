// The emulator measured against real Google: every recorded interaction (recordings/) is sent again
// in order and the emulator's answer compared with Google's (replay.ts says how).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGoogleEmulator, type GoogleEmulator } from "./server";
import { EMULATOR_SERVICE_ACCOUNT } from "./seed";
import { newServiceAccount, serviceAccountClient } from "./test-support";
import {
  createsSpreadsheet,
  differences,
  fileIdOf,
  loadRecordings,
  servedMethod,
  withFileIds,
  withSheetIds,
  type Interaction,
} from "./replay";

/** gspread's scopes; its service account's spreadsheets were created in this time zone. */
const SCOPES = ["https://www.googleapis.com/auth/spreadsheets", "https://www.googleapis.com/auth/drive"];
const RECORDED_TIME_ZONE = "Etc/GMT";

/**
 * Interactions where the emulator still answers otherwise than Google did, by recording and
 * position, with the reason each is left.
 */
const PROTECTED =
  "reads a protected range made by addProtectedRange, which the emulator does not serve (it keeps no protected ranges; the product never protects cells)";
const AUTO_RESIZE =
  "reads a column width set by autoResizeDimensions, which the emulator does not serve: Google measures the text in its own fonts' pixels";
const FORMATS =
  "reads cell formats (colours, alignment, bold) set by repeatCell, which the emulator does not serve: it keeps number formats only";
const GROUPS = "reads column groups made by addDimensionGroup, which the emulator does not serve";
const KNOWN_DIFFERENCES = new Map<string, string>([
  ["WorksheetTest.test_add_protected_range_warning#5", PROTECTED],
  ["WorksheetTest.test_delete_protected_range#5", PROTECTED],
  ["WorksheetTest.test_auto_resize_columns#8", AUTO_RESIZE],
  ["WorksheetTest.test_auto_resize_columns#17", AUTO_RESIZE],
  ["WorksheetTest.test_format#6", FORMATS],
  ["WorksheetTest.test_format#13", FORMATS],
  ["WorksheetTest.test_group_columns#6", GROUPS],
  ["WorksheetTest.test_group_columns#8", GROUPS],
  ["WorksheetTest.test_group_columns#15", GROUPS],
  ["WorksheetTest.test_group_columns#17", GROUPS],
]);

interface Outcome {
  where: string;
  method: string;
  diffs: string[];
  statusMatched: boolean;
}

const account = newServiceAccount(EMULATOR_SERVICE_ACCOUNT);
let emulator: GoogleEmulator;
let token: string;
const scored: Outcome[] = [];
const unserved: { where: string; status: number; message: string }[] = [];

async function admin(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${emulator.url}/__admin${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

async function send(i: Interaction, fileIds: Map<string, string>, sheetIds: Map<number, number>) {
  const url = withFileIds(i.uri, fileIds).replace(/^https:\/\/[^/]+/, emulator.url);
  let body = i.body ?? undefined;
  if (body && i.contentType?.includes("json"))
    body = withFileIds(JSON.stringify(withSheetIds(JSON.parse(body), sheetIds)), fileIds);
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (i.contentType) headers["content-type"] = i.contentType;
  const res = await fetch(url, { method: i.method, headers, body });
  const text = await res.text();
  let json: unknown = text;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: compared as text
  }
  return { status: res.status, json };
}

async function replay(name: string, interactions: Interaction[]) {
  const fileIds = new Map<string, string>();
  const sheetIds = new Map<number, number>([[0, 0]]);
  for (const [n, i] of interactions.entries()) {
    const where = `${name}#${n}`;
    if (createsSpreadsheet(i)) {
      const file = i.response as { id: string; name: string };
      const made = await admin("/spreadsheets", {
        title: file.name,
        timeZone: RECORDED_TIME_ZONE,
        members: { [EMULATOR_SERVICE_ACCOUNT]: "owner" },
        tabs: [{ title: "Sheet1", rows: [] }],
      });
      fileIds.set(file.id, String(made.spreadsheetId));
    } else {
      // A file the recording did not create exists at Google, owned by someone else.
      const id = fileIdOf(i.uri);
      if (id && !fileIds.has(id)) {
        const made = await admin("/spreadsheets", {
          title: "Someone else's",
          members: { "someone-else@example.com": "owner" },
          tabs: [{ title: "Sheet1", rows: [] }],
        });
        fileIds.set(id, String(made.spreadsheetId));
      }
    }
    const answer = await send(i, fileIds, sheetIds);
    const method = servedMethod(i);
    if (!method) {
      const message = String((answer.json as { error?: { message?: string } } | undefined)?.error?.message ?? "");
      unserved.push({ where, status: answer.status, message });
      continue;
    }
    const expected =
      i.response && typeof i.response === "object"
        ? JSON.parse(withFileIds(JSON.stringify(i.response), fileIds))
        : i.response;
    const statusMatched = answer.status === i.status;
    const diffs = statusMatched
      ? differences(expected, answer.json, sheetIds)
      : [`status ${i.status} expected, got ${answer.status}: ${JSON.stringify(answer.json).slice(0, 200)}`];
    if (!statusMatched) differences(expected, answer.json, sheetIds);
    scored.push({ where, method, diffs, statusMatched });
  }
}

beforeAll(async () => {
  emulator = await startGoogleEmulator({ serviceAccountKeys: [account], modifiedTimeLagMs: 0 });
  token = String((await serviceAccountClient(emulator.url, account, SCOPES).getAccessToken()).token);
  for (const { name, interactions } of loadRecordings()) {
    emulator.store.reset();
    await replay(name, interactions);
  }
  const full = scored.filter((o) => o.diffs.length === 0).length;
  const statusOnly = scored.filter((o) => o.statusMatched && o.diffs.length > 0).length;
  console.log(
    `Google replay: ${scored.length} scored, ${full} matched in full (${((100 * full) / scored.length).toFixed(1)}%), ` +
      `${statusOnly} status only, ${scored.length - full - statusOnly} status differs; ${unserved.length} not served`,
  );
  for (const o of scored)
    if (o.diffs.length && !KNOWN_DIFFERENCES.has(o.where))
      console.log(`${o.where} ${o.method}\n  ${o.diffs.slice(0, 6).join("\n  ")}`);
});
afterAll(() => emulator?.stop());

describe("the emulator against recorded Google traffic", () => {
  it("matches at least 98% of the scored interactions in full", () => {
    const full = scored.filter((o) => o.diffs.length === 0).length;
    expect(scored.length).toBeGreaterThan(400);
    expect(full / scored.length).toBeGreaterThanOrEqual(0.98);
  });

  it("differs only where a difference is listed with its reason, and every listed one still differs", () => {
    const differing = scored.filter((o) => o.diffs.length).map((o) => o.where);
    expect(differing.filter((w) => !KNOWN_DIFFERENCES.has(w))).toEqual([]);
    expect([...KNOWN_DIFFERENCES.keys()].filter((w) => !differing.includes(w))).toEqual([]);
  });

  it("answers methods it does not serve as Google answers a method it does not know", () => {
    expect(unserved.length).toBeGreaterThan(0);
    for (const u of unserved) {
      if (u.status === 400)
        expect(u.message, u.where).toMatch(
          /^Invalid JSON payload received\. Unknown name "\w+" at 'requests\[\d+\]': Cannot find field\.$/,
        );
      else expect([u.where, u.status]).toEqual([u.where, 404]);
    }
  });
});
