// The foundation as a client sees it: health, the informational document, the envelope.
import { connect } from "node:net";
import { expect, test } from "@playwright/test";
import pkg from "../../package.json" with { type: "json" };
import { E2E } from "../support/env";

/** One raw HTTP/1.1 exchange with the server (methods and paths a client library would not send). */
function rawExchange(request: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(E2E.port, "127.0.0.1", () => socket.write(request));
    let text = "";
    socket.on("data", (chunk) => (text += chunk));
    socket.on("end", () =>
      resolve({ status: Number(text.slice(9, 12)), body: JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)) }),
    );
    socket.on("error", reject);
  });
}

test("GET /health reports the database, limit store and sheets backend", async ({ request }) => {
  const res = await request.get("/health");
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(body).toMatchObject({ success: true, status: "ok" });
  for (const check of ["database", "limit_store", "sheets_backend"]) {
    expect(body.checks[check].status).toBe("ok");
  }
  expect(res.headers()["x-request-id"]).toMatch(/^req_/);
});

test("/health answers every method", async ({ request }) => {
  expect((await request.post("/health")).status()).toBe(200);
  expect((await request.head("/health")).status()).toBe(200);
});

test("GET /api describes the service with the spec's labels", async ({ request }) => {
  const res = await request.get("/api");
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(body).toMatchObject({ success: true, name: "SheetAPI", version: pkg.version });
  expect(typeof body.description).toBe("string");
  expect(Object.keys(body.endpoints)).toEqual(["health", "register_public", "register_private", "docs", "api"]);
  expect(Object.keys(body.endpoints.api)).toEqual(["read", "create", "update", "delete"]);
  expect(body.documentation).toMatch(/^http/);
});

test("unknown routes and methods answer in the envelope, never HTML", async ({ request }) => {
  for (const [method, path, status, code] of [
    ["GET", "/no/such/route", 404, "not_found"],
    ["POST", "/api/v2/whatever", 404, "not_found"],
    ["DELETE", "/api", 405, "method_not_allowed"],
  ] as const) {
    const res = await request.fetch(path, { method, data: method === "GET" ? undefined : "{not json" });
    expect(res.status()).toBe(status);
    expect(res.headers()["content-type"]).toContain("application/json");
    expect(await res.json()).toMatchObject({ success: false, error: code });
  }
});

test("methods and paths Next.js cannot route answer in the envelope, not a bare 500 or 400", async () => {
  for (const [line, status, code] of [
    [`TRACE /health`, 405, "method_not_allowed"],
    [`PROPFIND /api/v1/${E2E.demoSheetId}/Products/1`, 405, "method_not_allowed"],
    [`FOO /health`, 405, "method_not_allowed"],
    [`GET /api/v1/${E2E.demoSheetId}/Products/%ZZ`, 400, "validation_error"],
    [`DELETE /api/v1/${E2E.demoSheetId}/Products/%C3%28`, 400, "validation_error"],
    [`GET /docs/%ZZ`, 400, "validation_error"],
  ] as const) {
    const res = await rawExchange(`${line} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    expect([line, res.status, res.body]).toEqual([
      line,
      status,
      expect.objectContaining({ success: false, error: code, message: expect.any(String) }),
    ]);
  }
});
