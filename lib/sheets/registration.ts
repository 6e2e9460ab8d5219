// Registering a spreadsheet (DECISIONS 18, 19): parse the reference, decide how the service
// reaches it and whether it may write, read its structure, store it and issue a first key.
import { getSheet, insertSheet, saveSheetGrant } from "@/db/queries/sheets";
import type { Sheet, SheetAccess } from "@/db/schema";
import { limitAccountAction } from "@/lib/abuse/account-actions";
import { encryptSecret } from "@/lib/auth/token-crypto";
import { config } from "@/lib/env";
import { createGoogleClients, type GoogleCredential } from "@/lib/google/clients";
import { readGoogleError } from "@/lib/google/errors";
import { ApiError } from "@/lib/http/errors";
import { createApiKey } from "@/lib/keys/create";
import { PERMISSIONS } from "@/lib/keys/permissions";
import { isNoAccess, translateGoogleError } from "./google-access";
import { readSheetModel } from "./read-model";
import { getSheetModel } from "./schema";
import { publishSheet, toSheetRecord } from "./sheet-record";
import { parseSheetReference } from "./sheet-url";
import { schemaDocument, type SheetModel } from "./tab-model";

export interface Registration {
  created: boolean;
  sheet: Sheet;
  model: SheetModel;
  /** The first key's value, on creation only: it is never shown again. */
  apiKey: string | null;
}

async function canEdit(credential: GoogleCredential, id: string): Promise<boolean> {
  const { drive } = createGoogleClients(config().google, credential);
  // Without supportsAllDrives, Drive answers 404 for files in shared drives.
  const { data } = await drive.files.get({ fileId: id, fields: "capabilities(canEdit)", supportsAllDrives: true });
  return data.capabilities?.canEdit === true;
}

function noAccess(id: string): ApiError {
  const { serviceAccount } = config().google;
  return new ApiError(
    "forbidden",
    `The service cannot open this spreadsheet. Share it with ${serviceAccount.email} (Editor to allow writes, Viewer for reads), ` +
      `or set "Anyone with the link" to Viewer for a read-only API, or register it privately at /auth/google?sheet_url=${id}.`,
  );
}

/** How the service's own credentials reach a sheet: service account first, then the API key. */
async function probePublicAccess(id: string): Promise<{ access: SheetAccess; writable: boolean }> {
  try {
    return { access: "service_account", writable: await canEdit({ kind: "serviceAccount" }, id) };
  } catch (err) {
    if (!isNoAccess(err)) throw translateGoogleError(err);
  }
  try {
    const { sheets } = createGoogleClients(config().google, { kind: "apiKey" });
    await sheets.spreadsheets.get({ spreadsheetId: id, fields: "spreadsheetId" });
    return { access: "public", writable: false };
  } catch (err) {
    const status = readGoogleError(err).status;
    if (status === 404) throw new ApiError("not_found", `Google Sheets has no spreadsheet with the id ${id}.`);
    if (isNoAccess(err) || status === 401) throw noAccess(id);
    throw translateGoogleError(err);
  }
}

async function existingRegistration(id: string, userId: string): Promise<Registration | undefined> {
  const sheet = await getSheet({ id });
  if (!sheet) return undefined;
  if (sheet.userId !== userId) throw new ApiError("conflict", "This spreadsheet is already registered by another account.");
  return { created: false, sheet, model: await getSheetModel(toSheetRecord(sheet)), apiKey: null };
}

async function create(userId: string, id: string, access: { access: SheetAccess; writable: boolean; refreshTokenCiphertext?: string; grantEmail?: string }, credential: GoogleCredential): Promise<Registration> {
  let model: SheetModel;
  try {
    model = await readSheetModel(createGoogleClients(config().google, credential).sheets, id);
  } catch (err) {
    throw translateGoogleError(err);
  }
  let sheet: Sheet;
  try {
    sheet = await insertSheet({ id, userId, name: model.title, ...access, schema: model, schemaUpdatedAt: new Date(model.updatedAt) });
  } catch (err) {
    // Registered concurrently: answer as if this request came second.
    const existing = await existingRegistration(id, userId);
    if (existing) return existing;
    throw err;
  }
  const { value } = await createApiKey({ userId, sheetId: id, name: "Default key", permissions: [...PERMISSIONS] });
  return { created: true, sheet, model, apiKey: value };
}

/** POST /register: a sheet the service reaches with its own credentials. */
export async function registerSheet({ userId, sheetUrl }: { userId: string; sheetUrl: unknown }): Promise<Registration> {
  const id = parseSheetReference(sheetUrl);
  const existing = await existingRegistration(id, userId);
  if (existing) return existing;
  // Only attempts that reach Google spend the account's registration budget.
  await limitAccountAction(userId, "register");
  const access = await probePublicAccess(id);
  return create(userId, id, access, access.access === "public" ? { kind: "apiKey" } : { kind: "serviceAccount" });
}

/** GET /auth/google: a sheet reached through its owner's own grant. */
export async function registerPrivateSheet(input: { userId: string; sheetId: string; refreshToken: string; grantEmail: string }): Promise<Registration> {
  const credential: GoogleCredential = { kind: "oauth", refreshToken: input.refreshToken };
  let writable: boolean;
  try {
    writable = await canEdit(credential, input.sheetId);
  } catch (err) {
    if (isNoAccess(err)) {
      throw new ApiError("forbidden", `The Google account ${input.grantEmail} cannot open the spreadsheet ${input.sheetId}.`);
    }
    throw translateGoogleError(err);
  }
  const refreshTokenCiphertext = encryptSecret(input.refreshToken, config().secrets.encryptionKey);
  const existing = await existingRegistration(input.sheetId, input.userId);
  if (existing) {
    const row = await saveSheetGrant({ id: input.sheetId, userId: input.userId, refreshTokenCiphertext, grantEmail: input.grantEmail, writable });
    // The new grant must reach every instance: one still holding the old token would fail.
    await publishSheet(row);
    return { ...existing, sheet: row ?? existing.sheet };
  }
  return create(input.userId, input.sheetId, { access: "oauth", writable, refreshTokenCiphertext, grantEmail: input.grantEmail }, credential);
}

/** The answer of POST /register. */
export function registrationDocument(reg: Registration) {
  return {
    sheet_id: reg.sheet.id,
    sheet_name: reg.model.title,
    tabs: schemaDocument(reg.model).tabs,
    docs_url: `${config().appUrl}/docs/${reg.sheet.id}`,
    writable: reg.sheet.writable,
    access: reg.sheet.access,
    api_key: reg.apiKey,
  };
}
