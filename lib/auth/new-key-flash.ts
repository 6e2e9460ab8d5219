// A key created by a redirecting flow (private registration) is shown once on the page the flow
// lands on: it travels in a short-lived, httpOnly cookie that the page deletes when shown.
export const NEW_KEY_COOKIE = "sheetapi_new_key";

export function newKeyCookie(sheetId: string, value: string): string {
  const payload = encodeURIComponent(JSON.stringify({ sheetId, value }));
  return `${NEW_KEY_COOKIE}=${payload}; Path=/dashboard; HttpOnly; SameSite=Lax; Max-Age=120`;
}

export function readNewKey(raw: string | undefined, sheetId: string): string | undefined {
  if (!raw) return undefined;
  try {
    const parsed = JSON.parse(decodeURIComponent(raw)) as { sheetId?: string; value?: string };
    return parsed.sheetId === sheetId ? parsed.value : undefined;
  } catch {
    return undefined;
  }
}
