import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PEER_ADDRESS_HEADER, stampedPeer } from "./peer-address";
import { READ_PATH_HEADER, readPathStamp } from "./read-paths";
import { canonicalApiUrl, guardRawRequests, rawRefusal } from "./raw-requests";

describe("rawRefusal", () => {
  it("lets the served methods and decodable paths through", () => {
    for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
      expect(rawRefusal(method, "/api/v1/s/T%C3%A9st/1?filter=name%3D%C3%A9+x")).toBeUndefined();
  });

  it("refuses other methods with 405 and the methods served", () => {
    for (const method of ["TRACE", "TRACK", "CONNECT", "PROPFIND", "get"]) {
      const err = rawRefusal(method, "/health")!;
      expect([err.code, err.status, err.headers.Allow]).toEqual([
        "method_not_allowed",
        405,
        "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS",
      ]);
    }
  });

  it("refuses an API query whose percent-encoding does not decode; a page's query is the page's", () => {
    for (const query of ["filter=name=%FF", "filter=name=%ED%A0%80", "filter=name=%ZZ", "limit=%"]) {
      const err = rawRefusal("GET", `/api/v1/s/Products?${query}`);
      expect([err?.code, err?.message]).toEqual([
        "validation_error",
        expect.stringMatching(/query string .* is not valid percent-encoded UTF-8/),
      ]);
    }
    expect(rawRefusal("GET", "/api/v1/s/Products?filter=name=a%00b")).toBeUndefined();
    expect(rawRefusal("GET", "/dashboard?x=%ZZ")).toBeUndefined();
  });

  it("refuses a path whose percent-encoding does not decode, whatever the query holds", () => {
    for (const path of ["/api/v1/s/Products/%ZZ", "/x%C3%28", "/%", "/docs/%E0%A4%A"])
      expect(rawRefusal("GET", path)?.code).toBe("validation_error");
  });
});

describe("canonicalApiUrl", () => {
  it("makes an API path's slashes single and drops its trailing one, leaving the query alone", () => {
    expect(canonicalApiUrl("/api/v1//s///Products/")).toBe("/api/v1/s/Products");
    expect(canonicalApiUrl("//api/v1/s/T")).toBe("/api/v1/s/T");
    expect(canonicalApiUrl("/health/")).toBe("/health");
    expect(canonicalApiUrl("/billing/usage/?x=1")).toBe("/billing/usage?x=1");
    expect(canonicalApiUrl("/api/v1/s//T?filter=url=https://x.example//y/")).toBe(
      "/api/v1/s/T?filter=url=https://x.example//y/",
    );
  });

  it("leaves canonical paths, pages and other URLs to Next.js", () => {
    for (const url of [
      "/api/v1/s/T",
      "/api/v1/s/T?filter=url=https://x.example",
      "/",
      "//",
      "/docs/",
      "//docs",
      "/dashboard//usage",
      "/apix/",
      "http://host.example//api/",
    ]) {
      expect([url, canonicalApiUrl(url)]).toEqual([url, undefined]);
    }
  });
});

/** One raw HTTP/1.1 exchange: what the server wrote back. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(request));
    let text = "";
    socket.on("data", (chunk) => (text += chunk));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

describe("guardRawRequests on a node:http server", () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    guardRawRequests();
    server = createServer((req, res) => {
      if (req.url === "/peer") return res.end(`peer ${stampedPeer(String(req.headers[PEER_ADDRESS_HEADER]))}`);
      if (req.url === "/request-id") return res.end(`id ${req.headers["x-request-id"]}`);
      const read = readPathStamp.unstamp(req.headers[READ_PATH_HEADER] as string | undefined);
      res.end(`routed ${req.url}${read ? ` read ${read}` : ""}`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)) as Record<string, unknown>;

  it("answers TRACE and an undecodable path in the envelope without reaching the handler", async () => {
    const trace = await exchange(port, "TRACE /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(trace).toMatch(/^HTTP\/1\.1 405 /);
    expect(trace).toMatch(/\r\nallow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n/i);
    expect(bodyOf(trace)).toMatchObject({ success: false, error: "method_not_allowed" });
    const path = await exchange(port, "GET /api/v1/s/Products/%ZZ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(path).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(path)).toMatchObject({ success: false, error: "validation_error" });
  });

  it("answers a method the HTTP parser does not know with the same 405", async () => {
    const text = await exchange(port, "FOO /health HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(text).toMatch(/^HTTP\/1\.1 405 /);
    expect(bodyOf(text)).toMatchObject({ success: false, error: "method_not_allowed" });
  });

  it("answers a URL over the parser's limit with 431 in the envelope, readable cross-origin", async () => {
    const filter = Array.from({ length: 4000 }, (_, i) => i).join("|");
    const text = await exchange(port, `GET /api/v1/s/Products?filter=id=${filter} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(text).toMatch(/^HTTP\/1\.1 431 /);
    expect(text).toMatch(/\r\naccess-control-allow-origin: \*\r\n/i);
    expect(text).toMatch(/\r\nx-request-id: req_\w+\r\n/i);
    expect(bodyOf(text)).toMatchObject({
      success: false,
      error: "validation_error",
      message: expect.stringMatching(/exceed 16 KB/),
    });
  });

  it("gives every answer the request's id, the one the handler reads; a sane id of the client's is kept", async () => {
    const fresh = await exchange(port, "GET /request-id HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    const header = /\r\nx-request-id: (req_\w+)\r\n/i.exec(fresh)?.[1];
    expect(header).toBeDefined();
    expect(fresh.endsWith(`id ${header}`)).toBe(true);
    const given = await exchange(
      port,
      "GET /request-id HTTP/1.1\r\nHost: x\r\nX-Request-Id: trace-1234abcd\r\nConnection: close\r\n\r\n",
    );
    expect(given).toMatch(/\r\nx-request-id: trace-1234abcd\r\n/i);
    expect(given.endsWith("id trace-1234abcd")).toBe(true);
    const odd = await exchange(
      port,
      "GET /request-id HTTP/1.1\r\nHost: x\r\nX-Request-Id: <b>\r\nConnection: close\r\n\r\n",
    );
    expect(odd).toMatch(/\r\nx-request-id: req_\w+\r\n/i);
  });

  it("leaves other requests to the server's handler", async () => {
    const text = await exchange(
      port,
      "POST /api/v1/s/T%C3%A9st?filter=%C3%A9 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text.endsWith("routed /api/v1/s/T%C3%A9st?filter=%C3%A9")).toBe(true);
  });

  it("leaves a read whose path holds a dot segment or a tab route to Next.js, untouched", async () => {
    for (const path of ["/api/v1/s/T/_aggregate?x=1", "/api/v1/s/%2E%2E/T", "/api/v1/s/T/x/y"]) {
      const text = await exchange(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(text.endsWith(`routed ${path}`)).toBe(true);
    }
  });

  it("sends a read of rows to its static route, with the path it was asked at stamped", async () => {
    const text = await exchange(
      port,
      `GET /api/v1/s/T%C3%A9st/7?filter=%C3%A9 HTTP/1.1\r\nHost: x\r\n${READ_PATH_HEADER}: /api/v1/other/Tab\r\nConnection: close\r\n\r\n`,
    );
    expect(text.endsWith("routed /api/v1/_read?filter=%C3%A9 read /api/v1/s/T%C3%A9st/7")).toBe(true);
  });

  it("tells the handler the address that connected, whatever the client sent in its place", async () => {
    const text = await exchange(
      port,
      `GET /peer HTTP/1.1\r\nHost: x\r\n${PEER_ADDRESS_HEADER}: 10.1.2.3\r\nConnection: close\r\n\r\n`,
    );
    expect(text.endsWith("peer 127.0.0.1")).toBe(true);
  });

  it("passes an API path with doubled slashes and a trailing one on as the path without them", async () => {
    const text = await exchange(
      port,
      "DELETE /api//v1/s//T/?filter=a//b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    expect(text.endsWith("routed /api/v1/s/T?filter=a//b")).toBe(true);
    const read = await exchange(
      port,
      "GET /api//v1/s//T/?filter=a//b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    expect(read.endsWith("routed /api/v1/_read?filter=a//b read /api/v1/s/T")).toBe(true);
  });
});
