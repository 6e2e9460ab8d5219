// Form keys from the dashboard: made for one tab of a sheet of the signed-in account, listed with
// their counts of accepted and refused submissions. Revoked as any key is (manage.ts revokeKey).
import { listApiKeys } from "@/db/queries/api-keys";
import type { ApiKey } from "@/db/schema";
import { createApiKey } from "./create";
import { flushFormCounts } from "./form-counts";
import { formKeySettings, type FormKeySettings } from "./form";
import { toKeyRecord, type FormScope } from "./key-record";
import { ownedSheet } from "./manage";

export interface FormKeySummary {
  id: string;
  name: string;
  displayPrefix: string;
  settings: FormKeySettings;
  accepted: number;
  refused: number;
  createdAt: string;
  revokedAt: string | null;
}

export type FormKeyInput = Parameters<typeof formKeySettings>[0];

const scopeSettings = (s: FormScope): Omit<FormKeySettings, "message"> => ({
  tab: s.tab,
  origins: s.origins,
  redirects: s.redirects,
  fields: s.fields ?? null,
  unknownFields: s.unknownFields,
  visitorLimit: s.visitorLimit,
});

function summarize(key: ApiKey): FormKeySummary {
  return {
    id: key.id,
    name: key.name,
    displayPrefix: key.displayPrefix,
    // As stored (checked when made): a listing never refuses a key.
    settings: { ...scopeSettings(toKeyRecord(key).form!), message: key.thankYouMessage },
    accepted: key.formAccepted,
    refused: key.formRefused,
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}

export async function listFormKeys({
  userId,
  sheetId,
}: {
  userId: string;
  sheetId: string;
}): Promise<FormKeySummary[]> {
  await ownedSheet(userId, sheetId);
  // The counts as of now: this process's pending ones first.
  await flushFormCounts();
  return (await listApiKeys({ userId, sheetId })).filter((k) => k.kind === "form").map(summarize);
}

/** The key's value is answered once; only its hash is kept. */
export async function createFormKey(input: {
  userId: string;
  sheetId: string;
  name: string;
  form: FormKeyInput;
}): Promise<{ key: FormKeySummary; value: string }> {
  const form = formKeySettings(input.form);
  await ownedSheet(input.userId, input.sheetId);
  const { key, value } = await createApiKey({
    userId: input.userId,
    sheetId: input.sheetId,
    name: input.name,
    permissions: [],
    form,
  });
  return { key: summarize(key), value };
}
