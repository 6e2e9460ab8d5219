// Form keys: what an owner may set on one, checked and normalised in one place. A form key is
// public by design (it ships in a page's HTML), so it only appends rows to one tab, only from
// the origins its owner lists, sends browsers only to the addresses its owner lists.
import { ApiError, quoted } from "@/lib/errors";
import { DEFAULT_VISITOR_LIMIT, MAX_ORIGINS, MAX_SCOPE_NAMES, MAX_VISITOR_LIMIT, normalizeOrigin } from "./browser";

export const MAX_REDIRECTS = 10;
export const MAX_MESSAGE_CHARACTERS = 500;
export const UNKNOWN_FIELDS = ["drop", "refuse"] as const;
export type UnknownFields = (typeof UNKNOWN_FIELDS)[number];
/** Submissions per minute from one visitor when the owner sets nothing: a person fills few forms. */
export const DEFAULT_FORM_VISITOR_LIMIT = Math.min(10, DEFAULT_VISITOR_LIMIT);

export interface FormKeySettings {
  tab: string;
  origins: string[];
  /** Where a browser may be sent after a submission; the first is the default. Empty: the hosted page. */
  redirects: string[];
  /** Null: every column of the tab. */
  fields: string[] | null;
  unknownFields: UnknownFields;
  visitorLimit: number;
  /** Shown on the hosted thank-you page; null: a plain thank-you. */
  message: string | null;
}

const bad = (message: string) => new ApiError("validation_error", message);

/** An absolute http(s) address without credentials, fragment dropped; anything else is refused. */
export function normalizeRedirect(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw bad(
      `${quoted(input)} is not an address: give a full https:// address, such as https://www.example.com/thanks.`,
    );
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password) {
    throw bad(
      `${quoted(input)}: a thank-you address is an http:// or https:// address without a user name or password.`,
    );
  }
  url.hash = "";
  return url.href;
}

/** Checks and normalises what an owner sets on a form key. */
export function formKeySettings(input: {
  tab?: string;
  origins?: string[];
  redirects?: string[];
  fields?: string[] | null;
  unknownFields?: string;
  visitorLimit?: number | null;
  message?: string | null;
}): FormKeySettings {
  const tab = input.tab?.trim();
  if (!tab) throw bad("A form key appends rows to one tab: choose it.");
  const origins = [...new Set((input.origins ?? []).filter((o) => o.trim()).map(normalizeOrigin))];
  if (!origins.length)
    throw bad(
      "A form key needs at least one allowed origin, such as https://www.example.com: the site whose pages hold the form.",
    );
  if (origins.length > MAX_ORIGINS) throw bad(`At most ${MAX_ORIGINS} origins per key.`);
  const redirects = [...new Set((input.redirects ?? []).filter((r) => r.trim()).map(normalizeRedirect))];
  if (redirects.length > MAX_REDIRECTS) throw bad(`At most ${MAX_REDIRECTS} thank-you addresses per key.`);
  const fields = [...new Set((input.fields ?? []).map((f) => f.trim()).filter(Boolean))];
  if (fields.length > MAX_SCOPE_NAMES) throw bad(`At most ${MAX_SCOPE_NAMES} fields per key.`);
  if (fields.some((f) => f.startsWith("_")))
    throw bad("Field names starting with _ are the form's own (_gotcha, _redirect): they are never written.");
  const unknownFields = input.unknownFields ?? "drop";
  if (!(UNKNOWN_FIELDS as readonly string[]).includes(unknownFields))
    throw bad("Unknown fields are either dropped or refused.");
  const limit = input.visitorLimit ?? DEFAULT_FORM_VISITOR_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_VISITOR_LIMIT)
    throw bad(`The per-visitor limit is a whole number of submissions per minute from 1 to ${MAX_VISITOR_LIMIT}.`);
  const message = input.message?.trim() || null;
  if (message && message.length > MAX_MESSAGE_CHARACTERS)
    throw bad(`The thank-you message has at most ${MAX_MESSAGE_CHARACTERS} characters.`);
  return {
    tab,
    origins,
    redirects,
    fields: fields.length ? fields : null,
    unknownFields: unknownFields as UnknownFields,
    visitorLimit: limit,
    message,
  };
}
