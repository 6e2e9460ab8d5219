import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WebAssembly and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres"],
  poweredByHeader: false,
  // The emulators are development stand-ins; lint and type errors there must not hide in builds.
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
