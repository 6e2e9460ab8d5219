// The site's pages as the whole-site checks visit them (layout, screenshots, axe-core): one list,
// one setup (an owner with a registered sheet, and a visitor who is signed out), one walk over
// sizes and colour schemes.
import type { Browser, Page } from "@playwright/test";
import { registerSheet } from "./dashboard";
import { createSpreadsheet, type Rows } from "./emulator-admin";
import { signIn } from "./google-consent";

export interface SitePage {
  name: string;
  path: string;
  /** The owner's page for the dashboard, the visitor's for public pages. */
  on: Page;
}

export interface Size {
  name: string;
  width: number;
  height: number;
}

export const COLOR_SCHEMES = ["light", "dark"] as const;
export type ColorScheme = (typeof COLOR_SCHEMES)[number];

/**
 * Signs `owner` in on `page`, registers a sheet titled `title` with `rows`, and opens a visitor's
 * page in a context of its own (axe-core needs a page of an explicit context). `close` ends the
 * visitor's context.
 */
export async function everyPage(
  page: Page,
  browser: Browser,
  { owner, title, rows }: { owner: string; title: string; rows: Rows },
) {
  const sheetId = await createSpreadsheet(title, rows);
  await signIn(page, owner);
  await registerSheet(page, sheetId);
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  const pages: SitePage[] = [
    { name: "landing", path: "/", on: visitor },
    { name: "sign-in", path: "/signin", on: visitor },
    { name: "dashboard", path: "/dashboard", on: page },
    { name: "sheet", path: `/dashboard/sheets/${sheetId}`, on: page },
    { name: "webhooks", path: `/dashboard/sheets/${sheetId}/webhooks`, on: page },
    { name: "usage", path: "/dashboard/usage", on: page },
    { name: "guide", path: "/docs", on: visitor },
    { name: "reference", path: "/docs/reference/api", on: visitor },
    { name: "sheet-docs", path: `/docs/${sheetId}`, on: visitor },
    { name: "not-found", path: "/pricing", on: visitor },
    { name: "sheet-docs-not-found", path: "/docs/1NoSuchSheet000000000000000000000000000000", on: visitor },
  ];
  return { sheetId, pages, close: () => visitorContext.close() };
}

/** Loads every page at every size in both colour schemes, settled, and hands each view to `check`. */
export async function forEachView(
  pages: SitePage[],
  sizes: readonly Size[],
  check: (view: SitePage, size: Size, colorScheme: ColorScheme) => Promise<void>,
) {
  for (const view of pages) {
    for (const size of sizes) {
      await view.on.setViewportSize({ width: size.width, height: size.height });
      for (const colorScheme of COLOR_SCHEMES) {
        await view.on.emulateMedia({ colorScheme });
        await view.on.goto(view.path);
        await view.on.waitForLoadState("networkidle");
        await check(view, size, colorScheme);
      }
    }
  }
}
