import { describe, expect, it } from "vitest";
import { readJsonBody } from "./body";
import { ApiError } from "@/lib/errors";
import { otherMethods, route, unknownRoute } from "@/lib/routes/route";

const post = (body: BodyInit, type = "application/json") =>
  new Request("http://x/api", { method: "POST", body, headers: { "content-type": type } });

async function envelope(res: Response) {
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown>,
    requestId: res.headers.get("x-request-id"),
  };
}

describe("readJsonBody", () => {
  it("parses JSON", async () => {
    expect(await readJsonBody(post('{"a":1}'))).toEqual({ a: 1 });
  });

  it.each([
    ["{bad", "validation_error", /not valid JSON/],
    ["", "validation_error", /empty/],
  ])("refuses %j with %s", async (body, code, message) => {
    const err = await readJsonBody(post(body)).catch((e: ApiError) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(code);
    expect((err as ApiError).message).toMatch(message);
  });

  it("requires a JSON content type in UTF-8 for a JSON body", async () => {
    for (const type of ["text/plain", "", "application/json; charset=utf-16"]) {
      const err = (await readJsonBody(post("{}", type)).catch((e: ApiError) => e)) as ApiError;
      expect([type, err.code, err.status]).toEqual([type, "unsupported_media_type", 415]);
    }
    expect(await readJsonBody(post('{"a":1}', 'application/json; charset="UTF-8"'))).toEqual({ a: 1 });
    expect(await readJsonBody(post('{"a":1}', "application/vnd.api+json"))).toEqual({ a: 1 });
  });

  it("answers a body that is not JSON with 400 whatever its content type says", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/json"]) {
      const err = (await readJsonBody(post("name=x", type)).catch((e: ApiError) => e)) as ApiError;
      expect([type, err.code, err.status]).toEqual([type, "validation_error", 400]);
    }
  });

  it("refuses bytes that are not UTF-8 instead of storing replacement characters", async () => {
    const req = new Request("http://x/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    });
    const err = (await readJsonBody(req).catch((e: ApiError) => e)) as ApiError;
    expect([err.code, err.message]).toEqual([
      "validation_error",
      "The request body is not valid UTF-8: JSON text must be encoded in UTF-8.",
    ]);
  });

  it("stops reading past the size limit", async () => {
    const err = (await readJsonBody(post(JSON.stringify({ a: "x".repeat(2000) })), { maxBytes: 1000 }).catch(
      (e: ApiError) => e,
    )) as ApiError;
    expect([err.code, err.status]).toEqual(["payload_too_large", 413]);
  });
});

describe("route", () => {
  it("turns an ApiError into the envelope with a request id", async () => {
    const handler = route(() => {
      throw new ApiError("conflict", "Already there.", { detail: 1 });
    });
    const { status, body, requestId } = await envelope(await handler(new Request("http://x/")));
    expect(status).toBe(409);
    expect(body).toEqual({ success: false, error: "conflict", message: "Already there.", detail: 1 });
    expect(requestId).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it("hides unknown errors behind a generic 500", async () => {
    const handler = route(() => {
      throw new Error("secret stack detail");
    });
    const original = console.error;
    console.error = () => {};
    const { status, body } = await envelope(await handler(new Request("http://x/")));
    console.error = original;
    expect(status).toBe(500);
    expect(body.error).toBe("server_error");
    expect(JSON.stringify(body)).not.toContain("secret");
  });

  it("answers unknown routes and methods in the envelope", async () => {
    const missing = await envelope(await unknownRoute(new Request("http://x/nope")));
    expect(missing).toMatchObject({ status: 404, body: { success: false, error: "not_found" } });
    const res = await otherMethods(["GET"]).POST(new Request("http://x/api", { method: "POST" }));
    expect(res.headers.get("allow")).toBe("GET");
    expect(await envelope(res)).toMatchObject({ status: 405, body: { error: "method_not_allowed" } });
  });
});
