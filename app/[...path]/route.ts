import { config } from "@/lib/env";
import { unknownRouteWithLimits as other, withPeekedLimits } from "@/lib/routes/peek-limits";
import { nonceOf, pagePolicy } from "@/lib/http/page-policy";
import { isPageNavigation, unknownRoute } from "@/lib/routes/route";

// Any path no other route serves. A browser loading a page gets the 404 page (app/not-found.tsx);
// API clients, and every /api/* path whoever asks, get 404 in the spec's envelope; with a live
// key, either one carries the key's rate-limit headers (lib/routes/peek-limits.ts).
//
// A route handler cannot render a page, and notFound() here answers an empty 404, so the page is
// taken from this server's own prerendered /_not-found once and kept (it is static).
let notFoundPage: Promise<string> | undefined;

function loadNotFoundPage(): Promise<string> {
  notFoundPage ??= fetch(`http://127.0.0.1:${config().env.PORT}/_not-found`, {
    headers: { accept: "text/html" },
    signal: AbortSignal.timeout(5000),
  })
    .then((res) => res.text())
    .catch((err: unknown) => {
      notFoundPage = undefined;
      throw err;
    });
  return notFoundPage;
}

/** The prerendered page's scripts, and its preloads of scripts (checked as scripts are), with the answer's nonce. */
const withNonce = (html: string, nonce: string) =>
  html
    .replace(/<script(?![^>]*\snonce=)/g, `<script nonce="${nonce}"`)
    .replace(/<link(?=[^>]*\bas="script")(?![^>]*\snonce=)/g, `<link nonce="${nonce}"`);

const unknown = withPeekedLimits(async (req: Request) => {
  if (!isPageNavigation(req)) return unknownRoute(req);
  const html = await loadNotFoundPage().catch(
    () =>
      `<!doctype html><title>Page not found · SheetAPI</title><h1>Page not found</h1><p><a href="/">SheetAPI home</a></p>`,
  );
  // Under a path the proxy serves (/docs/…, /dashboard/…) the answer's policy has a nonce: the
  // page's scripts carry it too. Any other path gets the static policy (a path the proxy passes
  // over by case, /Docs, matches none of next.config.ts' headers either).
  const nonce = nonceOf(req.headers.get("content-security-policy"));
  const page = nonce ? withNonce(html, nonce) : html;
  return new Response(req.method === "HEAD" ? null : page, {
    status: 404,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": pagePolicy({ nonce }),
    },
  });
});

export {
  unknown as GET,
  unknown as HEAD,
  other as POST,
  other as PUT,
  other as PATCH,
  other as DELETE,
  other as OPTIONS,
};
