// SSRF guard: what a webhook URL may reach, checked before saving and at every connection.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addressAllowed, checkTarget, checkTargetUrl, guardedPost, TargetRefused } from "./target";

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
    const to: Record<string, string> = {
      "/to-metadata": "http://169.254.169.254/latest/meta-data/",
      "/to-name": `http://localhost:${directPort}/`,
      "/to-compatible": `http://[::127.0.0.1]:${directPort}/`,
      "/to-6to4": `http://[2002:7F00:0001::1]:${directPort}/`,
      "/to-nat64": `http://[64:ff9b::7f00:1]:${directPort}/`,
    };
    res.writeHead(307, { location: to[req.url ?? ""] ?? `http://127.0.0.1:${directPort}/` }).end();
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

  it("refuses IPv6 forms that carry a private IPv4 address, and the special-purpose IPv6 ranges", async () => {
    for (const url of [
      "http://[::7f00:1]:4510/", // IPv4-compatible
      "http://[::127.0.0.1]/",
      "http://[0:0:0:0:0:0:7F00:0001]/",
      "http://[::8.8.8.8]/", // IPv4-compatible is refused whatever it carries
      "http://[64:ff9b::a9fe:a9fe]/", // NAT64 to 169.254.169.254
      "http://[64:FF9B::10.0.0.1]/",
      "http://[64:ff9b:1::808:808]/", // local-use NAT64
      "http://[2002:a00:1::]/", // 6to4 of 10.0.0.1
      "http://[2002:C0A8:0101::1]/",
      "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", // Teredo
      "http://[100::1]/",
      "http://[2001:db8::1]/",
      "http://[3fff::1]/",
      "http://[5f00::1]/",
      "http://[ff02::1]/",
      "http://[fec0::1]/",
      "http://[fe80::1%25eth0]/", // zone ids are not valid in URLs at all
    ]) await refused(url);
    expect(await refused("http://[2002:0a00:0001::]/")).toMatch(/^2002:a00:1:: \(carrying the IPv4 address 10\.0\.0\.1\) is a loopback/);
  });

  it("accepts IPv6 forms that carry a public IPv4 address", () => {
    expect(checkTargetUrl("http://[64:ff9b::808:808]/")).toBeInstanceOf(URL);
    expect(checkTargetUrl("http://[2002:808:808::1]/")).toBeInstanceOf(URL);
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
    // The allowlist holds for the IPv4 address an IPv6 form carries, and for nothing else.
    for (const a of ["::ffff:127.0.0.2", "64:ff9b::7f00:2", "2002:7f00:2::1"]) expect(addressAllowed(a), a).toBe(true);
    for (const a of ["::ffff:127.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::1", "::7f00:2"]) expect(addressAllowed(a), a).toBe(false);
    await expect(checkTarget(`http://127.0.0.2:${redirectorPort}/`)).resolves.toBeInstanceOf(URL);
  });

  it("never connects to a refused address, and refuses redirects to one", async () => {
    await expect(guardedPost(`http://127.0.0.1:${directPort}/`, {}, "{}")).rejects.toThrow(/loopback/);
    await expect(guardedPost(`http://127.0.0.2:${redirectorPort}/`, {}, "{}")).rejects.toThrow(/loopback/);
    await expect(guardedPost(`http://127.0.0.2:${redirectorPort}/to-metadata`, {}, "{}")).rejects.toThrow(/169\.254\.169\.254/);
    await expect(guardedPost(`http://127.0.0.2:${redirectorPort}/to-name`, {}, "{}")).rejects.toThrow(/localhost resolves to/);
    await expect(guardedPost(`http://127.0.0.2:${redirectorPort}/to-compatible`, {}, "{}")).rejects.toThrow(/::7f00:1 is a loopback/);
    await expect(guardedPost(`http://127.0.0.2:${redirectorPort}/to-6to4`, {}, "{}")).rejects.toThrow(/carrying the IPv4 address 127\.0\.0\.1/);
    await expect(guardedPost(`http://127.0.0.2:${redirectorPort}/to-nat64`, {}, "{}")).rejects.toThrow(/carrying the IPv4 address 127\.0\.0\.1/);
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
