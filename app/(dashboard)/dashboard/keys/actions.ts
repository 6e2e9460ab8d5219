"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { limitAccountAction } from "@/lib/abuse/account-actions";
import { sessionAction } from "@/lib/auth/actions";
import {
  createKeyForSheet,
  revokeKey,
  updateBrowserKey,
  updateKeyFormulas,
  updateKeyPermissions,
} from "@/lib/keys/manage";
import { PERMISSIONS } from "@/lib/keys/permissions";

const permissions = z.array(z.enum(PERMISSIONS)).min(1, "Pick at least one permission.");
const name = z.string().trim().min(1, "Give the key a name.").max(60, "Key names are at most 60 characters.");

// A browser key's settings; lib/keys/browser.ts checks and normalises them.
const names = z.array(z.string().max(200)).max(500).nullable();
const browser = z.object({
  origins: z.array(z.string().max(300)).max(100),
  tabs: names,
  columns: names,
  visitorLimit: z.number(),
});

export const createKeyAction = sessionAction(
  z.object({
    sheetId: z.string(),
    name,
    permissions,
    browser: browser.optional(),
    refuseFormulas: z.boolean().optional(),
  }),
  async (input, user) => {
    await limitAccountAction(user.id, "createKey");
    const created = await createKeyForSheet({ userId: user.id, ...input });
    revalidatePath(`/dashboard/sheets/${input.sheetId}`);
    return created;
  },
);

export const updateKeyPermissionsAction = sessionAction(
  z.object({ keyId: z.string(), permissions }),
  async (input, user) => {
    const key = await updateKeyPermissions({ userId: user.id, ...input });
    revalidatePath("/dashboard", "layout");
    return key;
  },
);

export const updateBrowserKeyAction = sessionAction(z.object({ keyId: z.string(), browser }), async (input, user) => {
  const key = await updateBrowserKey({ userId: user.id, ...input });
  revalidatePath("/dashboard", "layout");
  return key;
});

export const updateKeyFormulasAction = sessionAction(
  z.object({ keyId: z.string(), readFormulas: z.boolean() }),
  async (input, user) => {
    const key = await updateKeyFormulas({ userId: user.id, ...input });
    revalidatePath("/dashboard", "layout");
    return key;
  },
);

export const revokeKeyAction = sessionAction(z.object({ keyId: z.string() }), async ({ keyId }, user) => {
  const key = await revokeKey({ userId: user.id, keyId });
  revalidatePath("/dashboard", "layout");
  return key;
});
