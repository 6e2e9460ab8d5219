// SSRF guard: what a webhook URL may reach, checked before saving and at every connection.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addressAllowed, checkTarget, checkTargetUrl, guardedPost, localTargetsHint, TargetRefused } from "./target";

let direct: Server;
let redirector: Server;
let ported: Server;
let internal: Server;
let directPort: number;
let redirectorPort: number;
let portedPort: number;
let internalPort: number;
/** Requests that reached the servers no delivery may reach through a redirect. */
const reached: string[] = [];

const listen = (server: Server, host: string) =>
  new Promise<number>((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));

beforeAll(async () => {
  direct = createServer((req, res) => {
    reached.push(`direct ${req.url}`);
    res.end("reached");
  });
  directPort = await listen(direct, "127.0.0.1");
  // 127.0.0.3 stands for an internal receiver allowed on its one port, 127.0.0.2 for a host allowed on all.
  ported = createServer((req, res) => {
    reached.push(`ported ${req.url}`);
    res.end("ported");
  });
  portedPort = await listen(ported, "127.0.0.3");
  // Another service of an allowed host (its Redis, say).
  internal = createServer((req, res) => {
    reached.push(`internal ${req.url}`);
    res.end("internal");
  });
  internalPort = await listen(internal, "127.0.0.2");
  redirector = createServer((req, res) => {
    const to: Record<string, string> = {
      "/to-metadata": "http://169.254.169.254/latest/meta-data/",
      "/to-name": `http://localhost:${directPort}/`,
      "/to-compatible": `http://[::127.0.0.1]:${directPort}/`,
      "/to-6to4": `http://[2002:7F00:0001::1]:${directPort}/`,
      "/to-nat64": `http://[64:ff9b::7f00:1]:${directPort}/`,
      "/to-allowed-port": `http://127.0.0.3:${portedPort}/`,
      "/to-same-host": `http://127.0.0.2:${internalPort}/`,
    };
    res.writeHead(307, { location: to[req.url ?? ""] ?? `http://127.0.0.1:${directPort}/` }).end("moved");
  });
  redirectorPort = await listen(redirector, "127.0.0.2");
  vi.stubEnv("DATA_DIR", "/tmp/sheetapi-target-test");
  // 127.0.0.1 stands for what must stay unreachable, but for localhost on directPort alone.
  vi.stubEnv("WEBHOOK_ALLOWED_TARGETS", `127.0.0.2, 127.0.0.3:${portedPort}, [::1]:4000, localhost:${directPort}`);
  vi.stubEnv("WEBHOOK_TIMEOUT_MS", "2000");
});
afterAll(async () => {
  for (const server of [direct, redirector, ported, internal]) server.close();
  vi.unstubAllEnvs();
});

const refused = async (url: string) => {
  const err = await checkTarget(url).then(
    () => undefined,
    (e: unknown) => e,
  );
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
    ])
      await refused(url);
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
    ])
      await refused(url);
    expect(await refused("http://[2002:0a00:0001::]/")).toMatch(
      /^2002:a00:1:: \(carrying the IPv4 address 10\.0\.0\.1\) is a loopback/,
    );
  });

  it("accepts IPv6 forms that carry a public IPv4 address", () => {
    expect(checkTargetUrl("http://[64:ff9b::808:808]/")).toBeInstanceOf(URL);
    expect(checkTargetUrl("http://[2002:808:808::1]/")).toBeInstanceOf(URL);
  });

  it("refuses names that resolve to such addresses, without naming the address", async () => {
    const message = await refused("http://localhost:9/");
    expect(message).toMatch(
      /^localhost does not resolve to a public address \(a loopback, link-local, private or reserved address is refused\)\./,
    );
    expect(message.replace(localTargetsHint(), "")).not.toMatch(/127\.0\.0\.1|::1/);
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
    for (const a of ["::ffff:127.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::1", "::7f00:2"])
      expect(addressAllowed(a), a).toBe(false);
    await expect(checkTarget(`http://127.0.0.2:${redirectorPort}/`)).resolves.toBeInstanceOf(URL);
  });

  it("allows an entry given with a port on that port only", async () => {
    expect(await guardedPost(`http://127.0.0.3:${portedPort}/`, {}, "{}")).toMatchObject({
      status: 200,
      body: "ported",
    });
    expect(await refused(`http://127.0.0.3:${portedPort + 1}/`)).toMatch(/^127\.0\.0\.3 is a loopback/);
    expect(await refused("http://127.0.0.3/")).toMatch(/^127\.0\.0\.3 is a loopback/);
    expect(addressAllowed("::1", 4000)).toBe(true);
    expect(addressAllowed("::1", 4001)).toBe(false);
    expect(addressAllowed("127.0.0.3")).toBe(false);
    // A name with a port: reached there, refused elsewhere.
    expect(await guardedPost(`http://localhost:${directPort}/`, {}, "{}")).toMatchObject({
      status: 200,
      body: "reached",
    });
    await expect(guardedPost(`http://localhost:${directPort + 1}/`, {}, "{}")).rejects.toThrow(
      /^localhost does not resolve to a public address/,
    );
    // An entry without a port still allows every port.
    expect(await guardedPost(`http://127.0.0.2:${internalPort}/`, {}, "{}")).toMatchObject({
      status: 200,
      body: "internal",
    });
  });

  it("never connects to a refused address, and follows no redirect", async () => {
    reached.length = 0;
    await expect(guardedPost(`http://127.0.0.1:${directPort}/`, {}, "{}")).rejects.toThrow(/loopback/);
    for (const [path, location] of [
      ["/", `http://127.0.0.1:${directPort}/`],
      ["/to-metadata", "http://169.254.169.254/latest/meta-data/"],
      ["/to-name", `http://localhost:${directPort}/`],
      ["/to-6to4", `http://[2002:7F00:0001::1]:${directPort}/`],
      // Allowed targets too: a redirect would take the delivery to a port nobody checked it for.
      ["/to-allowed-port", `http://127.0.0.3:${portedPort}/`],
      ["/to-same-host", `http://127.0.0.2:${internalPort}/`],
    ]) {
      expect(await guardedPost(`http://127.0.0.2:${redirectorPort}${path}`, {}, "{}"), path).toEqual({
        status: 307,
        body: "moved",
        location,
      });
    }
    expect(reached).toEqual([]);
  });

  it("bounds the time a receiver may take", async () => {
    const slow = createServer(() => undefined);
    const port = await listen(slow, "127.0.0.2");
    const started = Date.now();
    await expect(guardedPost(`http://127.0.0.2:${port}/`, {}, "{}", { timeoutMs: 300 })).rejects.toThrow(
      /no answer within \d+ ms|timed out/,
    );
    // Well under the 10 s default, allowing for a busy machine.
    expect(Date.now() - started).toBeLessThan(3000);
    slow.closeAllConnections();
    slow.close();
  });
});
