// The start's check of the limit store, as the database is checked: a wrong address or token
// stops the start with one line naming the fix, instead of every request degrading later.
import { createClient } from "redis";
import type { AppConfig } from "@/lib/env";
import { redactedUrl } from "./redis-store";

const CHECK_TIMEOUT_MS = 5_000;
const FIX = "check UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN (docs/operations.md, Deploy)";
const REDIS_FIX = "check REDIS_URL (docs/operations.md, Deploy)";
/** Redis's answers to a wrong password, user or database number: settings to fix. */
const REDIS_REFUSALS = /WRONGPASS|NOAUTH|invalid password|without any password|DB index is out of range|NOPERM/i;

export interface StoreProblem {
  /** One line saying what failed and which settings to check. */
  message: string;
  /** refused: the token is wrong (a setting to fix); unreachable or unexpected: the store may come back. */
  cause: "refused" | "unreachable" | "unexpected";
}

/** Undefined when the store answers PING with the configured token (or password). */
export async function limitStoreProblem(
  store: AppConfig["limitStore"],
  fetcher: typeof fetch = fetch,
): Promise<StoreProblem | undefined> {
  if (store.kind === "redis") return redisProblem(store.url);
  if (store.kind !== "upstash") return undefined;
  let res: Response;
  try {
    res = await fetcher(store.url, {
      method: "POST",
      headers: { Authorization: `Bearer ${store.token}`, "Content-Type": "application/json" },
      body: JSON.stringify(["PING"]),
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
  } catch (err) {
    // fetch wraps the socket's error (an AggregateError when every address of a host failed).
    const cause = (err as { cause?: { code?: string; errors?: { code?: string }[] } }).cause;
    const reason = cause?.code ?? cause?.errors?.[0]?.code ?? (err as Error).name;
    return { cause: "unreachable", message: `Cannot reach the limit store at ${store.url} (${reason}): ${FIX}.` };
  }
  const body = await res.text().catch(() => "");
  if (res.status === 401 || res.status === 403)
    return {
      cause: "refused",
      message: `The limit store at ${store.url} refused the token (HTTP ${res.status}): ${FIX}.`,
    };
  if (!res.ok || !body.includes("PONG"))
    return {
      cause: "unexpected",
      message: `The limit store at ${store.url} did not answer PING (HTTP ${res.status}): ${FIX}.`,
    };
  return undefined;
}

/** One connection, one PING, closed again: the store's own connection opens on first use. */
async function redisProblem(url: string): Promise<StoreProblem | undefined> {
  const shown = redactedUrl(url);
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: CHECK_TIMEOUT_MS, reconnectStrategy: false },
  });
  client.on("error", () => {}); // reported below, once
  try {
    await Promise.race([
      client.connect().then(() => client.ping()),
      new Promise((_, reject) => setTimeout(() => reject(new Error("no answer within 5 s")), CHECK_TIMEOUT_MS).unref()),
    ]);
    return undefined;
  } catch (err) {
    const reason = (err as { code?: string }).code ?? (err as Error).message;
    if (REDIS_REFUSALS.test((err as Error).message))
      return {
        cause: "refused",
        message: `The limit store at ${shown} refused the connection (${(err as Error).message}): ${REDIS_FIX}.`,
      };
    return { cause: "unreachable", message: `Cannot reach the limit store at ${shown} (${reason}): ${REDIS_FIX}.` };
  } finally {
    client.destroy();
  }
}
