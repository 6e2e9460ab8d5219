// Secrets for embedded mode, generated once and kept in DATA_DIR/secrets.json (mode 0600), and the
// encryption key as configured.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "./config-error";

export interface GeneratedSecrets {
  authSecret: string;
  encryptionKey: string;
  serviceAccountKey: string;
  demoApiKey?: string;
}

/** The embedded secrets: read from DATA_DIR, made and written there the first time. */
export function generatedSecrets(dataDir: string): GeneratedSecrets {
  const file = join(dataDir, "secrets.json");
  try {
    return JSON.parse(readFileSync(file, "utf8")) as GeneratedSecrets;
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const fresh: GeneratedSecrets = {
      authSecret: randomBytes(32).toString("base64url"),
      encryptionKey: randomBytes(32).toString("base64"),
      serviceAccountKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    };
    // Written whole under another name, then linked into place: when two processes start at once
    // (the server and the start's preparation), the first link wins and the other reads a complete file.
    const draft = `${file}.${process.pid}.tmp`;
    const fd = openSync(draft, "w", 0o600);
    try {
      writeSync(fd, JSON.stringify(fresh, null, 2));
      closeSync(fd);
      linkSync(draft, file);
      return fresh;
    } catch {
      return JSON.parse(readFileSync(file, "utf8")) as GeneratedSecrets;
    } finally {
      rmSync(draft, { force: true });
    }
  }
}

/** ENCRYPTION_KEY: 32 bytes, as 64 hex digits or base64. */
export function encryptionKeyOf(value: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
  if (key.length !== 32) throw new ConfigError("ENCRYPTION_KEY: must be 32 bytes, as 64 hex digits or base64");
  return key;
}
