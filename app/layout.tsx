import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import { config } from "@/lib/env";
import "./globals.css";

const title = "SheetAPI: your Google Sheet as a REST API";
const description =
  "Turn a Google Sheet into a fast, safe JSON API with keys, permissions, rate limits and generated docs.";

/** The service's address for absolute preview URLs; none when the build runs without configuration. */
function baseUrl(): URL | undefined {
  try {
    return new URL(config().appUrl);
  } catch {
    return undefined;
  }
}

// Social previews point at the service's own address (APP_URL), read when a page is served, not
// when it was built (hence no page is prerendered with a build-time address).
export async function generateMetadata(): Promise<Metadata> {
  await connection();
  return {
    metadataBase: baseUrl(),
    title,
    description,
    icons: {
      icon: [
        { url: "/favicon.ico", sizes: "32x32" },
        { url: "/favicon.svg", type: "image/svg+xml" },
      ],
      apple: "/apple-touch-icon.png",
    },
    manifest: "/manifest.webmanifest",
    openGraph: {
      title,
      description,
      siteName: "SheetAPI",
      type: "website",
      images: [{ url: "/og.png", width: 1200, height: 630, alt: "SheetAPI: your Google Sheet, as a real REST API" }],
    },
    twitter: { card: "summary_large_image", title, description, images: ["/og.png"] },
  };
}

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#020617" },
  ],
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-white font-sans text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        {/* The first stop of a keyboard: past the header's links to the page itself. */}
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:shadow dark:focus:bg-slate-900"
        >
          Skip to content
        </a>
        {children}
      </body>
    </html>
  );
}
