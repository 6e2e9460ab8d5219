// A double click sends the same submission twice: the same fields from the same visitor to the
// same key within a few seconds are one submission. The first claims it in the limit store.
import { createHash } from "node:crypto";
import { getLimitStore, writesPaused } from "@/lib/store/store";
import type { FormFields } from "./form-body";

export const DUPLICATE_WINDOW_SECONDS = 10;

const claimKey = (keyId: string, visitor: string, fields: FormFields) =>
  `sheetapi:form:dup:${createHash("sha256")
    .update(JSON.stringify([keyId, visitor, fields]))
    .digest("hex")}`;

/** `first`: no such submission in the window; `release`: give the claim back when nothing was written. */
export async function claimSubmission(
  keyId: string,
  visitor: string,
  fields: FormFields,
): Promise<{ first: boolean; release: () => Promise<void> }> {
  const key = claimKey(keyId, visitor, fields);
  // Without the store, writes are refused anyway (DECISIONS 18a): say so, as a 503.
  const first = await getLimitStore()
    .putIfAbsent(key, { at: Date.now() }, DUPLICATE_WINDOW_SECONDS)
    .catch(() => {
      throw writesPaused("the rate-limit store is unreachable");
    });
  return {
    first,
    release: () =>
      getLimitStore()
        .del(key)
        .catch(() => undefined),
  };
}
