import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: "SheetAPI: your Google Sheet as a REST API",
  description: "Turn a Google Sheet into a fast, safe JSON API with keys, permissions, rate limits and generated docs.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-white font-sans text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        {children}
      </body>
    </html>
  );
}
