// On embedded defaults the start command runs emulators/google beside the service, or reuses
// one already listening on the port (a second local instance, a test run).
import { createPublicKey } from "node:crypto";
import { join } from "node:path";
import type { AppConfig } from "@/lib/env";
import { startGoogleEmulator } from "@/emulators/google/server";

async function isEmulator(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/__admin/health`, { signal: AbortSignal.timeout(1000) });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * The service account's public key, given to the emulator as uploading it in IAM gives it to
 * Google: the emulator's token endpoint then accepts the service's signed assertions.
 */
async function uploadServiceAccountKey(url: string, cfg: AppConfig): Promise<void> {
  const { email, privateKey } = cfg.google.serviceAccount;
  const publicKey = createPublicKey(privateKey).export({ type: "spki", format: "pem" }).toString();
  const res = await fetch(`${url}/__admin/service-account-keys`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, publicKey }),
    signal: AbortSignal.timeout(5000),
  });
  if (!res.ok) throw new Error(`emulators/google refused the service account key (HTTP ${res.status})`);
}

/** Returns the emulator's URL and how to stop it (a no-op when it was already running). */
export async function ensureGoogleEmulator(cfg: AppConfig): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = cfg.env.GOOGLE_EMULATOR_PORT;
  const url = `http://127.0.0.1:${port}`;
  try {
    const emulator = await startGoogleEmulator({
      port,
      dataFile: join(cfg.dataDir, "google-emulator.json"),
      serviceAccountEmail: cfg.google.serviceAccount.email,
    });
    await uploadServiceAccountKey(emulator.url, cfg);
    return { url: emulator.url, stop: emulator.stop };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EADDRINUSE" && (await isEmulator(url))) {
      // Another instance started it: this one's key (its own DATA_DIR) must be known too.
      await uploadServiceAccountKey(url, cfg);
      return { url, stop: async () => {} };
    }
    throw new Error(`Cannot start emulators/google on port ${port}: ${(err as Error).message}. Set GOOGLE_EMULATOR_PORT to a free port.`);
  }
}
