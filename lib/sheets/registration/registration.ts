// Registering a spreadsheet (DECISIONS 18, 19): parse the reference, prove with Google that the
// person can open (or edit) it, decide how the service reaches it and whether it may write, read
// its structure, store it and issue a first key. Edit proof claims a sheet held with view proof.
import { claimSheet, getSheet, insertSheet, saveSheetGrant } from "@/db/queries/sheets";
import { getUserById } from "@/db/queries/users";
import { DEMO_EMAIL } from "@/lib/accounts/demo";
import type { Sheet, SheetAccess } from "@/db/schema";
import { limitAccountAction } from "@/lib/abuse/account-actions";
import { decryptSecret } from "@/lib/token-crypto";
import { config } from "@/lib/env";
import { createGoogleClients, type GoogleCredential } from "@/lib/google/clients";
import { serviceAccountsToTry } from "@/lib/google/identities";
import { ApiError } from "@/lib/errors";
import { createApiKey } from "@/lib/keys/create";
import { newId } from "@/lib/keys/ids";
import { publishKey } from "@/lib/keys/key-record";
import { PERMISSIONS } from "@/lib/keys/permissions";
import { isNoAccess, translateGoogleError } from "@/lib/sheets/sheet-access";
import { proveAgain } from "@/lib/sheets/access/access-check";
import { writesAllowed } from "@/lib/sheets/access/access-lapse";
import { holderStillEdits } from "@/lib/sheets/access/holder-proof";
import { needsPicker, proveAccess, type Proof } from "@/lib/sheets/access/proof";
import { readSheetModel } from "@/lib/sheets/read/read-model";
import { getSheetModel } from "@/lib/sheets/read/schema";
import { publishSheet, toSheetRecord } from "@/lib/sheets/sheet-record";
import { parseSheetReference } from "./sheet-url";
import { schemaDocument, type SheetModel } from "@/lib/sheets/values/tab-model";

export interface Registration {
  created: boolean;
  sheet: Sheet;
  model: SheetModel;
  /** The first key's value, on creation only: it is never shown again. */
  apiKey: string | null;
}

/** How the service reaches a registered sheet, and whether it may write. */
interface Reach {
  access: SheetAccess;
  writable: boolean;
  /** Which of the service's accounts, for "service_account" access. */
  serviceAccount?: string | null;
}

async function serviceAccountCanEdit(id: string, email: string): Promise<boolean | undefined> {
  const { drive } = createGoogleClients(config().google, { kind: "serviceAccount", email });
  try {
    const { data } = await drive.files.get({ fileId: id, fields: "capabilities(canEdit)", supportsAllDrives: true });
    return data.capabilities?.canEdit === true;
  } catch (err) {
    if (isNoAccess(err)) return undefined;
    throw translateGoogleError(err);
  }
}

/**
 * One of the service's own accounts when the sheet is shared with it (its quota, not the
 * person's): the sheet's own first, then the one the account was asked to share with, then the
 * others (lib/google/identities.ts). Otherwise the person's grant. Either way it writes only what
 * the person proved they can edit.
 */
async function chooseReach(
  id: string,
  proof: Proof,
  via: "service" | "grant",
  userId: string,
  current?: string | null,
): Promise<Reach> {
  const personCanEdit = proof.level === "edit";
  if (via === "service") {
    for (const email of await serviceAccountsToTry(userId, current)) {
      const saCanEdit = await serviceAccountCanEdit(id, email);
      // A link-viewable sheet the service account may only view stays read-only here
      // (DECISIONS 18): its editor makes it writable through the private flow, with their own grant.
      if (saCanEdit !== undefined)
        return { access: "service_account", writable: saCanEdit && personCanEdit, serviceAccount: email };
    }
  }
  return { access: "oauth", writable: personCanEdit };
}

function grantFields(reach: Reach, proof: Proof) {
  const viaGrant = reach.access === "oauth";
  return {
    access: reach.access,
    writable: reach.writable,
    proof: proof.level,
    grantId: viaGrant ? proof.grant.id : null,
    refreshTokenCiphertext: viaGrant ? proof.grant.refreshTokenCiphertext : null,
    grantEmail: proof.grant.email,
    // Just proven with Google: current until the next re-check (lib/sheets/access/access-check.ts).
    accessState: "current" as const,
    accessCheckedAt: new Date(),
    accessUnprovenSince: null,
    serviceAccount: reach.access === "service_account" ? (reach.serviceAccount ?? null) : null,
  };
}

async function readModel(id: string, reach: Reach, proof: Proof): Promise<SheetModel> {
  const credential: GoogleCredential =
    reach.access === "oauth"
      ? {
          kind: "oauth",
          refreshToken: decryptSecret(proof.grant.refreshTokenCiphertext, config().secrets.encryptionKey),
        }
      : { kind: "serviceAccount", email: reach.serviceAccount ?? undefined };
  try {
    return await readSheetModel(createGoogleClients(config().google, credential).sheets, id);
  } catch (err) {
    if (err instanceof ApiError) throw err; // a name the service cannot store
    throw translateGoogleError(err);
  }
}

async function firstKey(userId: string, id: string): Promise<string> {
  return (await createApiKey({ userId, sheetId: id, name: "Default key", permissions: [...PERMISSIONS] })).value;
}

/**
 * Who holds a sheet, as the person asking may read it: the demo account (the service's own,
 * seeded on embedded defaults or with DEMO_MODE, its address printed at every start) by name, and
 * the asker's own other account (same address, or the Google account they just proved with) by
 * its address; anyone else's address is theirs to share, so not shown.
 */
async function holderName(existing: Sheet, asker: { userId: string; googleEmail: string }): Promise<string> {
  const [holder, self] = await Promise.all([getUserById({ id: existing.userId }), getUserById({ id: asker.userId })]);
  const email = holder?.email?.toLowerCase();
  if (email === DEMO_EMAIL) return `the demo account (${DEMO_EMAIL}, seeded by npm start)`;
  if (email && (email === self?.email?.toLowerCase() || email === asker.googleEmail.toLowerCase()))
    return `your other SheetAPI account (${holder!.email})`;
  return "another SheetAPI account";
}

/** 409 for a sheet another account holds: who holds it, and what the person can do about it. */
async function taken(existing: Sheet, asker: { userId: string; googleEmail: string }): Promise<ApiError> {
  const holder = await holderName(existing, asker);
  const ifYours =
    "If the file is yours in Google Drive, choose it in Google Drive while signed in to Google as its owner: the file's owner always takes a sheet back, and the other account's keys stop.";
  const otherwise = "Otherwise register a copy (in Google Sheets: File, Make a copy).";
  return new ApiError(
    "conflict",
    existing.proof === "edit"
      ? `This spreadsheet is already registered by ${holder}, which proved it can edit it; between two editors the first registration stands. ${ifYours} ${otherwise}`
      : `This spreadsheet is already registered by ${holder}, with view access only. An account that proves with Google that it can edit the spreadsheet claims it: ask its owner for edit access, then choose it again in Google Drive. ${ifYours}`,
    { reason: "taken" },
  );
}

/**
 * Edit proof claims a sheet registered with view proof (or none); `overEdit` (the owner, or an
 * editor over a holder whose edit proof lapsed) claims one registered with edit proof too. The
 * earlier keys stop.
 */
async function claim(
  userId: string,
  existing: Sheet,
  proof: Proof,
  via: "service" | "grant",
  overEdit = false,
): Promise<Registration> {
  const reach = await chooseReach(existing.id, proof, via, userId, existing.serviceAccount);
  const model = await readModel(existing.id, reach, proof);
  const claimed = await claimSheet({
    id: existing.id,
    fromUserId: existing.userId,
    claimId: newId("claim"),
    overEdit,
    set: { userId, ...grantFields(reach, proof) },
  });
  if (!claimed) throw await taken(existing, { userId, googleEmail: proof.grant.email }); // claimed or re-proved concurrently
  // Every instance must see it at once: the previous owner's keys answer 401 from now on.
  for (const key of claimed.stoppedKeys) await publishKey(key);
  await publishSheet(claimed.sheet);
  return { created: true, sheet: claimed.sheet, model, apiKey: await firstKey(userId, claimed.sheet.id) };
}

async function create(userId: string, id: string, proof: Proof, via: "service" | "grant"): Promise<Registration> {
  const reach = await chooseReach(id, proof, via, userId);
  const model = await readModel(id, reach, proof);
  let sheet: Sheet;
  try {
    sheet = await insertSheet({
      id,
      userId,
      name: model.title,
      ...grantFields(reach, proof),
      schema: model,
      schemaUpdatedAt: new Date(model.updatedAt),
    });
  } catch (err) {
    // Registered concurrently: answer as if this request came second.
    const existing = await getSheet({ id });
    if (existing?.userId === userId)
      return { created: false, sheet: existing, model: await getSheetModel(toSheetRecord(existing)), apiKey: null };
    if (existing) throw await taken(existing, { userId, googleEmail: proof.grant.email });
    throw err;
  }
  return { created: true, sheet, model, apiKey: await firstKey(userId, id) };
}

/**
 * The account's own sheet again: 200, no new key. Through the grant it is re-authorized with it;
 * a read-only sheet becomes writable when Google now confirms the person can edit it (through the
 * service account when it may edit, else their grant); a writable one is proven again and becomes
 * read-only when the person is now only a viewer; otherwise it stays as it was.
 */
async function again(existing: Sheet, userId: string, via: "service" | "grant"): Promise<Registration> {
  // A registration whose access lapsed in Google, or never proven (made before proof existed), is
  // proven again first (the dashboard's "Prove access"): restored, it serves the same keys again;
  // still lapsed, it says why.
  if (
    via === "service" &&
    (existing.accessState === "read_only" ||
      existing.accessState === "suspended" ||
      existing.accessState === "unproven")
  ) {
    await limitAccountAction(userId, "register");
    const proven = await proveAgain(existing);
    return { created: false, sheet: proven, model: await getSheetModel(toSheetRecord(proven)), apiKey: null };
  }
  const renewed =
    via === "grant"
      ? await reachByGrant(existing, userId)
      : existing.writable
        ? await editLapsed(existing, userId)
        : await writableReach(existing, userId);
  if (renewed) {
    const row = await saveSheetGrant({ id: existing.id, userId, ...grantFields(renewed.reach, renewed.proof) });
    // The new grant must reach every instance: one still holding the old token would fail.
    await publishSheet(row);
    existing = row ?? existing;
  }
  return { created: false, sheet: existing, model: await getSheetModel(toSheetRecord(existing)), apiKey: null };
}

async function reachByGrant(existing: Sheet, userId: string): Promise<{ reach: Reach; proof: Proof }> {
  const proof = await proveAccess(userId, existing.id);
  return { reach: { access: "oauth", writable: proof.level === "edit" }, proof };
}

/**
 * A writable sheet registered again: Google is asked again whether the person still edits it
 * (proof is current, not historical). Made a viewer, the sheet becomes read-only (registering
 * again once they edit makes it writable again, below); no longer able to open it, the answer is
 * 403 as for a sheet never picked. The account's registration budget is spent; spent, or Google
 * failing on the way, the sheet is answered as it is.
 */
async function editLapsed(existing: Sheet, userId: string): Promise<{ reach: Reach; proof: Proof } | undefined> {
  let proof: Proof;
  try {
    await limitAccountAction(userId, "register");
    proof = await proveAccess(userId, existing.id);
  } catch (err) {
    if (needsPicker(err)) throw err;
    return undefined;
  }
  if (proof.level === "edit") return undefined;
  return { reach: { access: existing.access, writable: false, serviceAccount: existing.serviceAccount }, proof };
}

/**
 * The reach that makes a read-only sheet writable now, if any. It asks Google, so it spends the
 * account's registration budget (spent, the sheet is answered as it is); any failure on the way
 * leaves the sheet as it was.
 */
async function writableReach(existing: Sheet, userId: string): Promise<{ reach: Reach; proof: Proof } | undefined> {
  try {
    await limitAccountAction(userId, "register");
    const proof = await proveAccess(userId, existing.id);
    if (proof.level !== "edit") return undefined;
    const reach = await chooseReach(existing.id, proof, "service", userId, existing.serviceAccount);
    return reach.writable ? { reach, proof } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * POST /register, the dashboard and the private flow (`via: "grant"`, reached through the
 * person's grant): proof of access with Google first, then the sheet's structure and a first key.
 */
export async function registerSheet({
  userId,
  sheetUrl,
  via = "service",
}: {
  userId: string;
  sheetUrl: unknown;
  via?: "service" | "grant";
}): Promise<Registration> {
  const id = parseSheetReference(sheetUrl);
  const existing = await getSheet({ id });
  if (existing?.userId === userId) return again(existing, userId, via);
  // Only attempts that reach Google spend the account's registration budget.
  await limitAccountAction(userId, "register");
  const proof = await proveAccess(userId, id, String(sheetUrl).trim());
  if (!existing) return create(userId, id, proof, via);
  if (proof.level !== "edit") throw await taken(existing, { userId, googleEmail: proof.grant.email });
  if (existing.proof !== "edit") return claim(userId, existing, proof, via);
  if (proof.owner || !(await holderStillEdits(existing))) return claim(userId, existing, proof, via, true);
  throw await taken(existing, { userId, googleEmail: proof.grant.email });
}

/** The answer of POST /register. */
export function registrationDocument(reg: Registration) {
  return {
    sheet_id: reg.sheet.id,
    sheet_name: reg.model.title,
    tabs: schemaDocument(reg.model).tabs,
    docs_url: `${config().appUrl}/docs/${reg.sheet.id}`,
    writable: writesAllowed(reg.sheet),
    access: reg.sheet.access,
    proof: reg.sheet.proof,
    api_key: reg.apiKey,
  };
}
