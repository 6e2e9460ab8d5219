// Issues a key: the value is returned once; only its hash and display prefix are stored.
import { insertApiKey } from "@/db/queries/api-keys";
import type { ApiKey } from "@/db/schema";
import { displayPrefix, generateApiKey, hashApiKey } from "@/lib/api-key";
import type { BrowserKeySettings } from "./browser";
import type { FormKeySettings } from "./form";
import { newId } from "./ids";
import { publishKey } from "./key-record";
import type { Permission } from "./permissions";

/** `browser` given: a publishable key (`shp_`); `form`: a form key (`shf_`); settings checked by the caller. */
export async function createApiKey(input: {
  userId: string;
  sheetId: string;
  name: string;
  permissions: Permission[];
  browser?: BrowserKeySettings;
  form?: FormKeySettings;
  refuseFormulas?: boolean;
}): Promise<{ key: ApiKey; value: string }> {
  const { browser, form } = input;
  const value = generateApiKey(browser ? "publishable" : form ? "form" : "secret");
  const key = await insertApiKey({
    id: newId("key"),
    userId: input.userId,
    sheetId: input.sheetId,
    name: input.name,
    hash: hashApiKey(value),
    displayPrefix: displayPrefix(value),
    permissions: input.permissions,
    refuseFormulas: input.refuseFormulas === true,
    ...(browser
      ? {
          kind: "publishable",
          allowedOrigins: browser.origins,
          allowedTabs: browser.tabs,
          allowedColumns: browser.columns,
          visitorLimit: browser.visitorLimit,
        }
      : {}),
    ...(form
      ? // A public form never writes a formula (USER_ENTERED sheets): lib/sheets/write/formula-guard.ts.
        {
          kind: "form",
          permissions: [],
          refuseFormulas: true,
          formTab: form.tab,
          allowedOrigins: form.origins,
          allowedRedirects: form.redirects,
          formFields: form.fields,
          unknownFields: form.unknownFields,
          visitorLimit: form.visitorLimit,
          thankYouMessage: form.message,
        }
      : {}),
  });
  // Not required (a miss reads Postgres), but it saves the first request a query.
  await publishKey(key).catch(() => undefined);
  return { key, value };
}
