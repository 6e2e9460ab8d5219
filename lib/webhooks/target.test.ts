// SSRF guard: what a webhook URL may reach, checked before saving and at every connection.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addressAllowed, checkTarget, guardedPost, TargetRefused } from "./target";

let direct: Server;
let redirector: Server;
let directPort: number;
let redirectorPort: number;

const listen = (server: Server, host: string) => new Promise<number>((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));

beforeAll(async () => {
  vi.stubEnv("DATA_DIR", "/tmp/sheetapi-target-test");
  // 127.0.0.2 stands for an allowed internal receiver; 127.0.0.1 for what must stay unreachable.
  vi.stubEnv("WEBHOOK_ALLOWED_TARGETS", "127.0.0.2");
  vi.stubEnv("WEBHOOK_TIMEOUT_MS", "2000");
  direct = createServer((_req, res) => res.end("reached"));
  directPort = await listen(direct, "127.0.0.1");
  redirector = createServer((req, res) => {
    const to = req.url === "/to-metadata" ? "http://169.254.169.254/latest/meta-data/" : req.url === "/to-name" ? `http://localhost:${directPort}/` : `http://127.0.0.1:${directPort}/`;
    res.writeHead(307, { location: to }).end();
  });
  redirectorPort = await listen(redirector, "127.0.0.2");
});
afterAll(async () => {
  direct.close();
  redirector.close();
  vi.unstubAllEnvs();
});

const refused = async (url: string) => {
  const err = await checkTarget(url).then(() => undefined, (e: unknown) => e);
  expect(err, url).toBeInstanceOf(TargetRefused);
  return (err as Error).message;
};

describe("webhook targets", () => {
  it("refuses loopback, link-local, private, unique-local and reserved addresses", async () => {
    for (const url of [
      "http://127.0.0.1/hook",
      "http://127.5.6.7:8080/",
      "http://169.254.169.254/latest/meta-data/",
      "http://10.1.2.3/",
      "http://172.16.0.9/",
      "http://192.168.1.1/",
      "http://100.64.0.1/",
      "http://0.0.0.0/",
      "http://[::1]/",
      "http://[fd00::1]/",
      "http://[fe80::1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://224.0.0.1/",
    ]) await refused(url);
  });

  it("refuses names that resolve to such addresses", async () => {
    expect(await refused("http://localhost:9/")).toMatch(/resolves to (127\.0\.0\.1|::1)/);
  });

  it("refuses other schemes and credentials in the URL", async () => {
    expect(await refused("ftp://example.com/")).toMatch(/http and https/);
    expect(await refused("file:///etc/passwd")).toMatch(/http and https/);
    expect(await refused("https://user:pass@example.com/")).toMatch(/credentials/);
    await refused("not a url");
  });

  it("accepts public addresses and what the allowlist names", async () => {
    expect(addressAllowed("93.184.216.34")).toBe(true);
    expect(addressAllowed("2606:4700::1111")).toBe(true);
    expect(addressAllowed("127.0.0.2")).toBe(true);
    await expect(checkTarget(`http://127.0.0.2:${redirectorPort}/`)).resolves.toBeInstanceOf(URL);
  });

  it("never connects to a refused address, and refuses redirects to one", async () => {
    await expect(guardedPost(`http://127.0.0.1:${directPort}/`, {}, "{}")).rejects.toThrow(/loopback/);
    await expect(guardedPost(`http://127.0.0.2:${redirectorPort}/`, {}, "{}")).rejects.toThrow(/loopback/);
    await expect(guardedPost(`http://127.0.0.2:${redirectorPort}/to-metadata`, {}, "{}")).rejects.toThrow(/169\.254\.169\.254/);
    await expect(guardedPost(`http://127.0.0.2:${redirectorPort}/to-name`, {}, "{}")).rejects.toThrow(/localhost resolves to/);
  });

  it("bounds the time a receiver may take", async () => {
    const slow = createServer(() => undefined);
    const port = await listen(slow, "127.0.0.2");
    const started = Date.now();
    await expect(guardedPost(`http://127.0.0.2:${port}/`, {}, "{}", { timeoutMs: 300 })).rejects.toThrow(/no answer within \d+ ms|timed out/);
    // Well under the 10 s default, allowing for a busy machine.
    expect(Date.now() - started).toBeLessThan(3000);
    slow.closeAllConnections();
    slow.close();
  });
});
