"use server";

import { z } from "zod";
import { getSheetForUser } from "@/db/queries/sheets";
import { sessionAction } from "@/lib/auth/actions";
import { ApiError } from "@/lib/errors";
import { ownerRead } from "@/lib/sheets/read/owner-reads";
import { toSheetRecord } from "@/lib/sheets/sheet-record";

// The owner's "Try it": a GET read of their own sheet through the session, not counted against the plan.
export const ownerReadAction = sessionAction(
  z.object({
    sheetId: z.string(),
    tab: z.string(),
    rowId: z.string().max(200).optional(),
    query: z.string().max(2000).optional(),
  }),
  async ({ sheetId, ...request }, user) => {
    const sheet = await getSheetForUser({ id: sheetId, userId: user.id });
    if (!sheet) throw new ApiError("not_found", "No such sheet in your account.");
    return ownerRead(user.id, toSheetRecord(sheet), request);
  },
);
