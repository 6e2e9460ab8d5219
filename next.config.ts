import type { NextConfig } from "next";
import { pagePolicy } from "./lib/http/page-policy";

const production = process.env.NODE_ENV === "production";

// On every answer, pages and API alike.
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  ...(production && process.env.APP_URL?.startsWith("https://")
    ? [{ key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" }]
    : []),
];

// The API answers JSON and CSV, never a document to render: nothing may load from it or frame
// it (OWASP's REST headers). Kept apart from the pages' policy for speed too: Next.js compiles a
// header value holding a colon as a path template on every request it applies to, and the pages'
// policy holds several (https:, data:, ports); this one holds none.
const apiContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'";
const nextConfig: NextConfig = {
  // One self-contained server (.next/standalone/server.js with the node_modules it uses): what
  // production runs and the Docker image ships, with no build and no devDependencies on the host.
  output: "standalone",
  // PGlite ships WebAssembly and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "pino", "pg-boss", "pg"],
  poweredByHeader: false,
  // The reference pages (/docs/reference/<page>) read docs/<page>.md from disk when first asked
  // for: the standalone server carries those files beside server.js.
  outputFileTracingIncludes: { "/docs/reference/*": ["./docs/*.md"] },
  // `next start` would load every route's modules at start (the dashboard, the Google clients,
  // the database driver), on the CPU the first request needs, and keep them all in memory. Each
  // route's modules load on its first request instead: the first answer comes sooner and an idle
  // server holds less (bench/RESULTS.md, Start).
  experimental: { preloadEntriesOnStart: false },
  // Routes named route.bench.ts exist only in builds made for the benchmarks
  // (SHEETAPI_BENCH_ROUTES=1 at build time, as bench/ does): production never ships them.
  pageExtensions: process.env.SHEETAPI_BENCH_ROUTES === "1" ? ["tsx", "ts", "bench.ts"] : ["tsx", "ts"],
  // The emulators are development stand-ins; lint and type errors there must not hide in builds.
  typescript: { ignoreBuildErrors: false },
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders },
      // The pages rendered per request get a policy with a nonce from proxy.ts
      // (lib/http/page-policy.ts); every other path but /api and below gets the static one.
      {
        source: "/:path((?!api(?:/|$)|signin$|dashboard(?:/|$)|docs(?:/|$)).+)",
        headers: [{ key: "Content-Security-Policy", value: pagePolicy() }],
      },
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: apiContentSecurityPolicy }] },
    ];
  },
};

export default nextConfig;
