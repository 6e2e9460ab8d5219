"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { limitAccountAction } from "@/lib/abuse/account-actions";
import { sessionAction } from "@/lib/auth/actions";
import { createFormKey } from "@/lib/keys/form-keys";

const list = z.array(z.string().max(300)).max(200);

// A form key for one tab; lib/keys/form.ts checks and normalises the settings.
export const createFormKeyAction = sessionAction(
  z.object({
    sheetId: z.string(),
    name: z.string().trim().min(1, "Give the form a name.").max(60, "Names are at most 60 characters."),
    form: z.object({
      tab: z.string().max(200),
      origins: list,
      redirects: list,
      fields: list.nullable(),
      unknownFields: z.enum(["drop", "refuse"]),
      visitorLimit: z.number(),
      message: z.string().max(1000).nullable(),
    }),
  }),
  async (input, user) => {
    await limitAccountAction(user.id, "createKey");
    const created = await createFormKey({ userId: user.id, ...input });
    revalidatePath(`/dashboard/sheets/${input.sheetId}`);
    return created;
  },
);
