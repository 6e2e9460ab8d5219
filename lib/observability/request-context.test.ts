// Every log line written while a request is answered names its request id, route and sheet,
// without the code that logs passing them; lines outside a request carry none of them.
import { afterEach, describe, expect, it } from "vitest";
import { route } from "@/lib/routes/route";
import { log, setLogTarget } from "@/lib/log";

const lines: Record<string, unknown>[] = [];
afterEach(() => {
  setLogTarget(undefined);
  log.level = "silent";
  lines.length = 0;
});

describe("request context in log lines", () => {
  it("adds req_id, route and sheet to lines logged inside a request", async () => {
    log.level = "info";
    setLogTarget({ write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
    const handler = route<{ sheetId: string; tabName: string }>(async ({ params, annotate }) => {
      annotate({ sheet: params.sheetId });
      await new Promise((r) => setTimeout(r, 1));
      log.warn({ during: "test" }, "limits: store unavailable");
      log.warn({ req_id: "given" }, "a caller's own request id wins");
      return Response.json({ success: true });
    });
    const res = await handler(new Request("http://x/api/v1/S1/Products"), {
      params: Promise.resolve({ sheetId: "S1", tabName: "Products" }),
    });
    expect(res.status).toBe(200);
    const id = res.headers.get("x-request-id");
    expect(id).toBeTruthy();
    log.warn("outside any request");

    const [degraded, own, request, outside] = lines;
    expect(degraded).toMatchObject({
      msg: "limits: store unavailable",
      during: "test",
      req_id: id,
      route: "/api/v1/{sheetId}/{tabName}",
      sheet: "S1",
    });
    expect(own).toMatchObject({ req_id: "given", route: "/api/v1/{sheetId}/{tabName}" });
    expect(request).toMatchObject({ msg: "request", req_id: id, sheet: "S1", status: 200 });
    expect(outside).toMatchObject({ msg: "outside any request" });
    expect(outside).not.toHaveProperty("req_id");
    expect(outside).not.toHaveProperty("route");
  });
});
