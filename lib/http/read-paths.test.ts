import { describe, expect, it } from "vitest";
import { stampPeer } from "./peer-address";
import { READ_PATH_HEADER, READ_ROUTE, readPathStamp, readRewrite, stampedRead } from "./read-paths";

const stamped = (path: string) =>
  new Request(`http://x${READ_ROUTE}`, { headers: { [READ_PATH_HEADER]: readPathStamp.stamp(path) } });

describe("readRewrite", () => {
  it("sends GET and HEAD of a tab's rows and of one row to the static route, query kept", () => {
    expect(readRewrite("GET", "/api/v1/1AbC_d-9/Products?filter=a%3Db&limit=2")?.url).toBe(
      `${READ_ROUTE}?filter=a%3Db&limit=2`,
    );
    expect(readRewrite("HEAD", "/api/v1/s/Team%20Members/42")?.url).toBe(READ_ROUTE);
    expect(readRewrite("GET", "/api/v1/s/Products.csv")?.url).toBe(READ_ROUTE);
    expect(readRewrite("GET", "/api/v1/s/a%2Fb/x~y")?.url).toBe(READ_ROUTE);
  });

  it("leaves writes, other routes and unusual paths to Next.js' routing", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
      expect(readRewrite(method, "/api/v1/s/Products/1")).toBeUndefined();
    for (const url of [
      "/api/v1/s",
      "/api/v1/s/Products/1/2",
      "/api/v1/s/Products/_aggregate",
      "/api/v1/s/Products/_distinct?column=a",
      "/api/v1/s/Products/%5Faggregate",
      "/api/v1/s/Products/%5faggregate",
      "/api/v1/s/..",
      "/api/v1/s/./1",
      "/api/v1/s/%2e%2E",
      "/api/v1/s/Products/.",
      "/api/v1/s/Pro{ducts}",
      '/api/v1/s/Pro"ducts',
      "/api/v1/s/Pro\\ducts",
      "/api/s/schema",
      "/api/v1/s/Products/",
      "/apix/v1/s/Products",
    ]) {
      expect([url, readRewrite("GET", url)]).toEqual([url, undefined]);
    }
  });

  it("keeps dots that are not a dot segment", () => {
    expect(readRewrite("GET", "/api/v1/s/v1.2/..x")?.url).toBe(READ_ROUTE);
    expect(readRewrite("GET", "/api/v1/s/.../1")?.url).toBe(READ_ROUTE);
  });
});

describe("stampedRead", () => {
  it("gives back the path and its params decoded as Next.js decodes a dynamic segment", () => {
    const rewrite = readRewrite("GET", "/api/v1/s/T%C3%A9st%20A/7?x=1")!;
    expect(
      stampedRead(new Request(`http://x${rewrite.url}`, { headers: { [READ_PATH_HEADER]: rewrite.stamp } }))?.path,
    ).toBe("/api/v1/s/T%C3%A9st%20A/7");
    const path = "/api/v1/s/T%C3%A9st%20a%2Fb+c/7";
    expect(stampedRead(stamped(path))).toEqual({ path, params: { sheetId: "s", tabName: "Tést a/b+c", rowId: "7" } });
    expect(stampedRead(stamped("/api/v1/s/Products"))).toEqual({
      path: "/api/v1/s/Products",
      params: { sheetId: "s", tabName: "Products" },
    });
  });

  it("knows nothing of a path a client stamped itself, nor of another header's stamp", () => {
    for (const sent of [
      "/api/v1/s/Products",
      `${"0".repeat(32)} /api/v1/s/Products`,
      `${"é".repeat(32)} /api/v1/s/Products`,
      stampPeer("/api/v1/s/Products"),
    ]) {
      expect(
        stampedRead(new Request(`http://x${READ_ROUTE}`, { headers: { [READ_PATH_HEADER]: sent } })),
      ).toBeUndefined();
    }
    expect(stampedRead(new Request(`http://x${READ_ROUTE}`))).toBeUndefined();
  });

  it("gives nothing back for a stamped path that does not decode", () => {
    expect(stampedRead(stamped("/api/v1/s/T%C3%28"))).toBeUndefined();
  });
});
