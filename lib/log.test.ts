// The request line's own writer gives what pino gives for the same fields.
import { afterEach, expect, it } from "vitest";
import { log, logRequest, setLogTarget } from "./log";

afterEach(() => {
  setLogTarget(undefined);
  log.level = "silent";
});

function capture(write: () => void): Record<string, unknown>[] {
  const lines: string[] = [];
  setLogTarget({ write: (line: string) => lines.push(line) });
  log.level = "info";
  write();
  return lines.map((l) => {
    expect(l.endsWith("}\n")).toBe(true);
    return JSON.parse(l) as Record<string, unknown>;
  });
}

it("writes the request line as pino writes the same fields, key order included", () => {
  const fields = {
    req_id: "req_1",
    method: "GET",
    route: "/api/v1/{sheetId}",
    status: 200,
    duration_ms: 1.5,
    sheet: 's"1',
  };
  const [ours] = capture(() => logRequest({ ...fields }));
  const [pinos] = capture(() => log.info({ ...fields }, "request"));
  expect(Object.keys(ours!)).toEqual(Object.keys(pinos!));
  expect({ ...ours, time: undefined }).toEqual({ ...pinos, time: undefined });
  expect(ours!.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  expect(Math.abs(Date.parse(ours!.time as string) - Date.now())).toBeLessThan(1000);
});

it("censors a field whose name could carry a secret, and writes nothing below info", () => {
  expect(capture(() => logRequest({ token: "abc", status: 200 }))[0]).toMatchObject({
    token: "[redacted]",
    status: 200,
  });
  setLogTarget({ write: () => expect.unreachable() });
  log.level = "warn";
  logRequest({ status: 200 });
});
