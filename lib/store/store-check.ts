// The start's check of the limit store, as the database is checked: a wrong address or token
// stops the start with one line naming the fix, instead of every request degrading later.
import type { AppConfig } from "@/lib/env";

const CHECK_TIMEOUT_MS = 5_000;
const FIX = "check UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN (docs/operations.md, Deploy)";

export interface StoreProblem {
  /** One line saying what failed and which settings to check. */
  message: string;
  /** refused: the token is wrong (a setting to fix); unreachable or unexpected: the store may come back. */
  cause: "refused" | "unreachable" | "unexpected";
}

/** Undefined when the store answers PING with the configured token. */
export async function limitStoreProblem(store: AppConfig["limitStore"], fetcher: typeof fetch = fetch): Promise<StoreProblem | undefined> {
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
  if (res.status === 401 || res.status === 403) return { cause: "refused", message: `The limit store at ${store.url} refused the token (HTTP ${res.status}): ${FIX}.` };
  if (!res.ok || !body.includes("PONG")) return { cause: "unexpected", message: `The limit store at ${store.url} did not answer PING (HTTP ${res.status}): ${FIX}.` };
  return undefined;
}
