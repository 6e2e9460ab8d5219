import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, PRODUCTION_REQUIRED, PRODUCTION_STORE } from "./env";

const dataDir = () => mkdtempSync(join(tmpdir(), "sheetapi-env-"));

describe("loadConfig", () => {
  it("runs on embedded defaults with nothing set, generating secrets once", () => {
    const dir = dataDir();
    const cfg = loadConfig({ DATA_DIR: dir });
    expect(cfg.database).toEqual({ kind: "pglite", dir: join(dir, "pglite") });
    // The embedded store is kept in DATA_DIR across restarts; tests each start their own, empty.
    expect(cfg.limitStore).toEqual({ kind: "memory", file: join(dir, "limit-store.json") });
    expect(loadConfig({ DATA_DIR: dir, NODE_ENV: "test" }).limitStore).toEqual({ kind: "memory" });
    expect(cfg.google).toMatchObject({ emulated: true, rootUrl: "http://127.0.0.1:4010" });
    expect(cfg.secrets.encryptionKey).toHaveLength(32);
    expect(cfg.demo.enabled).toBe(true);
    expect(statSync(join(dir, "secrets.json")).mode & 0o777).toBe(0o600);
    const again = loadConfig({ DATA_DIR: dir });
    expect(again.secrets.authSecret).toBe(cfg.secrets.authSecret);
    expect(again.google.serviceAccount.privateKey).toBe(cfg.google.serviceAccount.privateKey);
  });

  it("refuses production without its settings and names each missing one", () => {
    let message = "";
    try {
      loadConfig({ NODE_ENV: "production", DATA_DIR: dataDir(), DATABASE_URL: "postgres://db/x" });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    for (const name of [...PRODUCTION_REQUIRED.filter((n) => n !== "DATABASE_URL"), PRODUCTION_STORE])
      expect(message).toContain(name);
    expect(message).not.toContain("DATABASE_URL,");
    expect(message).toContain("ALLOW_EMBEDDED=true");
  });

  it("names Stripe's settings in the same go when production has nothing set", () => {
    const message = (() => {
      try {
        loadConfig({ NODE_ENV: "production", DATA_DIR: dataDir() });
      } catch (err) {
        return (err as Error).message;
      }
      return "";
    })();
    for (const name of [
      ...PRODUCTION_REQUIRED,
      "STRIPE_SECRET_KEY",
      "STRIPE_WEBHOOK_SECRET",
      "STRIPE_PRICE_STARTER",
      "STRIPE_PRICE_PROFESSIONAL",
      "STRIPE_PRICE_BUSINESS",
    ])
      expect(message).toContain(name);
    expect(message).toMatch(/BILLING=off/);
    // BILLING=off named: Stripe is not asked for.
    expect(() => loadConfig({ NODE_ENV: "production", BILLING: "off", DATA_DIR: dataDir() })).toThrow(
      /^(?![\s\S]*STRIPE_)Production needs/,
    );
  });

  it("runs production on embedded defaults only when told to, without demo data unless asked", () => {
    const cfg = loadConfig({ NODE_ENV: "production", ALLOW_EMBEDDED: "true", BILLING: "off", DATA_DIR: dataDir() });
    expect(cfg.database.kind).toBe("pglite");
    expect(cfg.demo.enabled).toBe(false);
    expect(
      loadConfig({ NODE_ENV: "production", ALLOW_EMBEDDED: "1", BILLING: "off", DEMO_MODE: "1", DATA_DIR: dataDir() })
        .demo.enabled,
    ).toBe(true);
    expect(loadConfig({ DEMO_MODE: "false", DATA_DIR: dataDir() }).demo.enabled).toBe(false);
  });

  it("takes payment through Stripe when configured, and refuses production without it unless BILLING=off is named", () => {
    const stripe = {
      STRIPE_SECRET_KEY: "sk_test_1",
      STRIPE_WEBHOOK_SECRET: "whsec_1",
      STRIPE_PRICE_STARTER: "price_s",
      STRIPE_PRICE_PROFESSIONAL: "price_p",
      STRIPE_PRICE_BUSINESS: "price_b",
    };
    expect(loadConfig({ DATA_DIR: dataDir() }).billing).toEqual({ enabled: false, reason: "embedded" });
    const on = loadConfig({ DATA_DIR: dataDir(), ...stripe, STRIPE_API_URL: "http://127.0.0.1:12111" }).billing;
    expect(on).toMatchObject({
      enabled: true,
      api: { host: "127.0.0.1", port: 12111, protocol: "http" },
      prices: { starter: "price_s", professional: "price_p", business: "price_b" },
    });
    const rotated = loadConfig({ DATA_DIR: dataDir(), ...stripe, STRIPE_PRICE_STARTER: "price_s2, price_s" }).billing;
    expect(rotated).toMatchObject({
      prices: { starter: "price_s2" },
      acceptedPrices: { starter: ["price_s2", "price_s"], business: ["price_b"] },
    });
    expect(() => loadConfig({ NODE_ENV: "production", ALLOW_EMBEDDED: "1", DATA_DIR: dataDir() })).toThrow(
      /STRIPE_SECRET_KEY.*BILLING=off/s,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), STRIPE_SECRET_KEY: "sk_test_1" })).toThrow(
      /STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_STARTER/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), BILLING: "on" })).toThrow(/Paid plans need/);
    expect(
      loadConfig({ NODE_ENV: "production", ALLOW_EMBEDDED: "1", BILLING: "off", DATA_DIR: dataDir(), ...stripe })
        .billing,
    ).toEqual({ enabled: false, reason: "off" });
  });

  it("uses Postgres, Upstash and an explicit Google root when configured", () => {
    const cfg = loadConfig({
      DATA_DIR: dataDir(),
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test",
      UPSTASH_REDIS_REST_URL: "http://127.0.0.1:8079",
      UPSTASH_REDIS_REST_TOKEN: "t",
      GOOGLE_API_ROOT_URL: "http://127.0.0.1:4999/",
    });
    expect(cfg.database).toEqual({ kind: "postgres", url: "postgres://postgres@127.0.0.1:5432/test", prepare: true });
    expect(cfg.limitStore).toMatchObject({ kind: "upstash", url: "http://127.0.0.1:8079", timeoutMs: 1000 });
    expect(cfg.google.rootUrl).toBe("http://127.0.0.1:4999");
    expect(cfg.demo.enabled).toBe(false);
  });

  it("uses a plain Redis from REDIS_URL unless Upstash is configured, and production needs one of them", () => {
    const redis = loadConfig({ DATA_DIR: dataDir(), REDIS_URL: "redis://:pw@redis:6379/0" }).limitStore;
    expect(redis).toEqual({ kind: "redis", url: "redis://:pw@redis:6379/0", timeoutMs: 1000 });
    expect(loadConfig({ DATA_DIR: dataDir(), REDIS_URL: "rediss://redis.example.com" }).limitStore.kind).toBe("redis");
    // Both set: Upstash wins (store.ts logs that REDIS_URL is ignored).
    const both = loadConfig({
      DATA_DIR: dataDir(),
      REDIS_URL: "redis://redis:6379",
      UPSTASH_REDIS_REST_URL: "http://127.0.0.1:8079",
      UPSTASH_REDIS_REST_TOKEN: "t",
    });
    expect(both.limitStore.kind).toBe("upstash");
    expect(() => loadConfig({ DATA_DIR: dataDir(), REDIS_URL: "http://redis:6379" })).toThrow(
      /REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/,
    );
    const production = (env: Record<string, string>) => {
      try {
        loadConfig({ NODE_ENV: "production", DATA_DIR: dataDir(), ...env });
      } catch (err) {
        return (err as Error).message;
      }
      return "";
    };
    expect(production({})).toContain(PRODUCTION_STORE);
    expect(production({ REDIS_URL: "redis://redis:6379" })).not.toMatch(/REDIS_URL|UPSTASH/);
    expect(production({ UPSTASH_REDIS_REST_URL: "https://db.upstash.io", UPSTASH_REDIS_REST_TOKEN: "t" })).not.toMatch(
      /REDIS_URL|UPSTASH/,
    );
  });

  it("takes several service accounts from GOOGLE_SERVICE_ACCOUNTS, after GOOGLE_SERVICE_ACCOUNT_JSON, each address once", () => {
    const key = (n: number) => ({ client_email: `sa-${n}@p.iam.gserviceaccount.com`, private_key: `key ${n}` });
    const emails = (env: Record<string, string>) =>
      loadConfig({ DATA_DIR: dataDir(), ...env }).google.serviceAccounts.map((a) => a.email);
    expect(
      emails({
        GOOGLE_SERVICE_ACCOUNT_JSON: JSON.stringify(key(1)),
        GOOGLE_SERVICE_ACCOUNTS: JSON.stringify([key(1), key(2), key(3)]),
      }),
    ).toEqual(["sa-1@p.iam.gserviceaccount.com", "sa-2@p.iam.gserviceaccount.com", "sa-3@p.iam.gserviceaccount.com"]);
    const listOnly = loadConfig({
      DATA_DIR: dataDir(),
      GOOGLE_SERVICE_ACCOUNTS: Buffer.from(JSON.stringify([key(2), key(3)])).toString("base64"),
    });
    expect([listOnly.google.serviceAccount.email, listOnly.google.serviceAccounts.length]).toEqual([
      "sa-2@p.iam.gserviceaccount.com",
      2,
    ]);
    // Embedded defaults: one identity, the generated one.
    expect(loadConfig({ DATA_DIR: dataDir() }).google.serviceAccounts).toHaveLength(1);
    // In production the list stands in for the single key.
    expect(() =>
      loadConfig({ NODE_ENV: "production", DATA_DIR: dataDir(), GOOGLE_SERVICE_ACCOUNTS: JSON.stringify([key(1)]) }),
    ).toThrow(/^(?![\s\S]*GOOGLE_SERVICE_ACCOUNT_JSON)[\s\S]*GOOGLE_API_KEY/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), GOOGLE_SERVICE_ACCOUNTS: "[]" })).toThrow(
      /GOOGLE_SERVICE_ACCOUNTS: needs a JSON list of key files/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), GOOGLE_SERVICE_ACCOUNTS: '[{"client_email": 1' })).toThrow(
      /GOOGLE_SERVICE_ACCOUNTS: not JSON/,
    );
  });

  it("names loopback hosts localhost in the base URL, as Next.js does", () => {
    expect(loadConfig({ DATA_DIR: dataDir(), APP_URL: "http://127.0.0.1:3210/" }).appUrl).toBe("http://localhost:3210");
    expect(loadConfig({ DATA_DIR: dataDir(), APP_URL: "https://api.example.com" }).appUrl).toBe(
      "https://api.example.com",
    );
  });

  it("explains malformed values", () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: "mysql://x" })).toThrow(
      /DATABASE_URL: must be a postgres/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), PORT: "http" })).toThrow(/PORT/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), UPSTASH_REDIS_REST_URL: "http://x" })).toThrow(
      /UPSTASH_REDIS_REST_TOKEN/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), ENCRYPTION_KEY: "c2hvcnQ=" })).toThrow(/32 bytes/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), DEMO_API_KEY: "demo" })).toThrow(/DEMO_API_KEY/);
  });
});
