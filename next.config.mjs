// Plain JavaScript on purpose: a next.config.ts is transpiled each time Next loads it (at build
// and again at every start); this file is read as it is.

const production = process.env.NODE_ENV === "production";

// Pages render no third-party content: everything from this origin. Next.js hydrates with inline
// scripts (and `next dev` evaluates code), hence 'unsafe-inline' and, in development only,
// 'unsafe-eval'. No framing, no plugins, no base-URL tricks.
const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${production ? "" : " 'unsafe-eval'"}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "object-src 'none'",
].join("; ");

const securityHeaders = [
  { key: "Content-Security-Policy", value: contentSecurityPolicy },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  ...(production && process.env.APP_URL?.startsWith("https://") ? [{ key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" }] : []),
];

/** @type {import("next").NextConfig} */
const nextConfig = {
  // PGlite ships WebAssembly and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "pino"],
  poweredByHeader: false,
  // Routes named route.bench.ts exist only in builds made for the benchmarks
  // (SHEETAPI_BENCH_ROUTES=1 at build time, as bench/ does): production never ships them.
  pageExtensions: process.env.SHEETAPI_BENCH_ROUTES === "1" ? ["tsx", "ts", "bench.ts"] : ["tsx", "ts"],
  // The emulators are development stand-ins; lint and type errors there must not hide in builds.
  typescript: { ignoreBuildErrors: false },
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default nextConfig;
