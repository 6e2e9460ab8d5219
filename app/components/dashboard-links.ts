// Addresses in the dashboard that other pages send the owner to: one place, so a moved section
// breaks one line, not every link to it.

/** The plan panel, where the owner changes plan. */
export const PLAN_PANEL_HREF = "/dashboard/usage#plan";

/** The sheet page's "Try it as the owner", whose reads are not counted against the plan. */
export const ownerTryItHref = (sheetId: string) => `/dashboard/sheets/${sheetId}#try-it`;
