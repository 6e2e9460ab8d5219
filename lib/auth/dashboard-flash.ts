// What a redirecting flow hands to the dashboard page it lands on (a new key, what went wrong):
// JSON in a short-lived, httpOnly cookie scoped to /dashboard, never in the URL.

export function flashCookie(name: string, payload: Record<string, unknown>, maxAgeSeconds: number): string {
  return `${name}=${encodeURIComponent(JSON.stringify(payload))}; Path=/dashboard; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}`;
}

/** The cookie's payload; undefined when there is none or it is not ours. */
export function readFlash(raw: string | undefined): Record<string, unknown> | undefined {
  if (!raw) return undefined;
  try {
    const parsed: unknown = JSON.parse(decodeURIComponent(raw));
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
