"use server";

import { cookies } from "next/headers";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getSheetForUser, setSheetSettings } from "@/db/queries/sheets";
import { formAction, sessionAction } from "@/lib/auth/actions";
import { currentUser } from "@/lib/auth/session";
import { changePlan } from "@/lib/limits/accounts";
import { isPlanId } from "@/lib/plans";
import { secureCookies } from "@/lib/auth/dashboard-flash";
import { NEW_KEY_COOKIE } from "@/lib/auth/new-key-flash";
import { ApiError } from "@/lib/errors";
import { config } from "@/lib/env";
import { pickerAccessToken } from "@/lib/sheets/access/proof";
import { currentAccess } from "@/lib/sheets/access/access-check";
import { requireRegistrantCanOpen } from "@/lib/sheets/access/access-lapse";
import { registerSheet, registrationDocument } from "@/lib/sheets/registration/registration";
import { addIdColumn } from "@/lib/sheets/write/id-column";
import { getSheetModel, refreshSheetModel } from "@/lib/sheets/read/schema";
import { parseSheetReference } from "@/lib/sheets/registration/sheet-url";
import { publishSheet, publishSheetQuietly, toSheetRecord } from "@/lib/sheets/sheet-record";

/**
 * The dashboard's words for an address that is not a Google Sheets one (the API's name the field).
 * A valid one is passed on as typed, so a message about it can show what the person entered.
 */
function readableReference(sheetUrl: string): string {
  if (!sheetUrl.trim())
    throw new ApiError("validation_error", "Paste the sheet's address, or choose the sheet from Google Drive.");
  try {
    parseSheetReference(sheetUrl);
    return sheetUrl.trim();
  } catch {
    throw new ApiError(
      "validation_error",
      "That is not a Google Sheets address. Open the sheet in your browser and copy the address from the address bar " +
        "(it starts with https://docs.google.com/spreadsheets/d/), or paste just the id between /d/ and /edit.",
    );
  }
}

export const registerSheetAction = sessionAction(
  z.object({ sheetUrl: z.string(), via: z.enum(["service", "grant"]).default("service") }),
  async ({ sheetUrl, via }, user) => {
    const reg = await registerSheet({ userId: user.id, sheetUrl: readableReference(sheetUrl), via });
    revalidatePath("/dashboard");
    // The address the first call goes to, as the sheet page shows it.
    return { created: reg.created, ...registrationDocument(reg), base_url: config().appUrl };
  },
);

/** What the Google Picker needs in the browser: a short-lived access token of the account's grant. */
export const pickerSessionAction = sessionAction(z.object({}), async (_input, user) => {
  const access = await pickerAccessToken(user.id);
  if (!access) {
    throw new ApiError(
      "forbidden",
      "Google no longer accepts SheetAPI's access to your Drive files. Connect Google again to choose a sheet.",
      { reason: "google_grant_revoked" },
    );
  }
  const { picker } = config().google;
  return {
    token: access.token,
    email: access.email,
    scriptUrl: picker.scriptUrl,
    developerKey: picker.developerKey,
    appId: picker.appId,
  };
});

export const refreshSchemaAction = sessionAction(z.object({ sheetId: z.string() }), async ({ sheetId }, user) => {
  const sheet = await getSheetForUser({ id: sheetId, userId: user.id });
  if (!sheet) throw new ApiError("not_found", "No such sheet in your account.");
  // Nothing new of a sheet its registrant can no longer open in Google.
  const record = await currentAccess(toSheetRecord(sheet));
  requireRegistrantCanOpen(record);
  const model = await refreshSheetModel(record);
  revalidatePath(`/dashboard/sheets/${sheetId}`);
  return { tabs: model.tabs.length, updatedAt: model.updatedAt };
});

export const addIdColumnAction = sessionAction(
  z.object({ sheetId: z.string(), tab: z.string() }),
  async ({ sheetId, tab }, user) => {
    const sheet = await getSheetForUser({ id: sheetId, userId: user.id });
    if (!sheet) throw new ApiError("not_found", "No such sheet in your account.");
    const record = toSheetRecord(sheet);
    const model = (await getSheetModel(record)).tabs.find((t) => t.name === tab);
    if (!model) throw new ApiError("not_found", `No tab named "${tab}": refresh the schema.`);
    const added = await addIdColumn(record, model);
    revalidatePath(`/dashboard/sheets/${sheetId}`);
    return added;
  },
);

export const saveCacheSettingsAction = sessionAction(
  z.object({
    sheetId: z.string(),
    cacheTtlSeconds: z.coerce
      .number()
      .int()
      .min(1, "The cache TTL is at least 1 second.")
      .max(3600, "The cache TTL is at most 3,600 seconds."),
    maxStaleSeconds: z.coerce
      .number()
      .int()
      .min(0, "The stale bound cannot be negative.")
      .max(86_400, "The stale bound is at most 86,400 seconds."),
  }),
  async (input, user) => {
    const row = await setSheetSettings({
      id: input.sheetId,
      userId: user.id,
      settings: { cacheTtlSeconds: input.cacheTtlSeconds, maxStaleSeconds: input.maxStaleSeconds },
    });
    if (!row) throw new ApiError("not_found", "No such sheet in your account.");
    // Every instance sees the new settings on its next request.
    await publishSheetQuietly(row);
    revalidatePath(`/dashboard/sheets/${input.sheetId}`);
    return { cacheTtlSeconds: row.cacheTtlSeconds, maxStaleSeconds: row.maxStaleSeconds };
  },
);

/** The owner's choice of how written strings are entered: parsed as typed (USER_ENTERED) or stored as text (RAW). */
export const saveWriteModeAction = sessionAction(
  z.object({ sheetId: z.string(), userEnteredWrites: z.boolean() }),
  async (input, user) => {
    const row = await setSheetSettings({
      id: input.sheetId,
      userId: user.id,
      settings: { userEnteredWrites: input.userEnteredWrites },
    });
    if (!row) throw new ApiError("not_found", "No such sheet in your account.");
    // Every instance writes the new way from its next request; turning it off guards against formula
    // injection, so a failure to tell them is the owner's to see, not a log line.
    await publishSheet(row);
    revalidatePath(`/dashboard/sheets/${input.sheetId}`);
    return { userEnteredWrites: row.userEnteredWrites };
  },
);

export const saveDocsExamplesAction = sessionAction(
  z.object({ sheetId: z.string(), docsExamples: z.boolean() }),
  async (input, user) => {
    const row = await setSheetSettings({
      id: input.sheetId,
      userId: user.id,
      settings: { docsExamples: input.docsExamples },
    });
    if (!row) throw new ApiError("not_found", "No such sheet in your account.");
    revalidatePath(`/dashboard/sheets/${input.sheetId}`);
    revalidatePath(`/docs/${input.sheetId}`);
    return { docsExamples: row.docsExamples };
  },
);

/** What the plan form says after a change: the plan now in force, or why nothing changed. */
export type PlanChange = { ok: true; plan: string } | { ok: false; error: string } | null;

/**
 * Plan change from the dashboard when billing is off (BILLING=off, embedded defaults); limits
 * follow within the account cache's 30 s. A plan the service does not sell (a forged form)
 * changes nothing and says so; with billing on, plans change only through Stripe.
 */
export const changePlanAction = formAction(
  "change plan",
  async (_before: PlanChange, form: FormData): Promise<PlanChange> => {
    const user = await currentUser();
    if (!user) return { ok: false, error: "Your session has ended: sign in again to change the plan." };
    if (config().billing.enabled)
      return { ok: false, error: "Plans are paid for through Stripe here: use the upgrade buttons or Manage billing." };
    const plan = String(form.get("plan") ?? "");
    if (!isPlanId(plan)) return { ok: false, error: "That plan is not sold: choose one of the list." };
    await changePlan(user.id, plan);
    revalidatePath("/dashboard", "layout");
    return { ok: true, plan };
  },
);

/** The new key has been shown: it must not be shown again. */
export async function dismissNewKeyAction(): Promise<void> {
  // The expiring Set-Cookie carries the attributes the cookie was set with (Secure over https).
  (await cookies()).delete({
    name: NEW_KEY_COOKIE,
    path: "/dashboard",
    httpOnly: true,
    sameSite: "lax",
    secure: secureCookies(),
  });
}
