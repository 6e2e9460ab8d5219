// The foundation as a client sees it: health, the informational document, the envelope.
import { expect, test } from "@playwright/test";
import pkg from "../../package.json" with { type: "json" };

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
