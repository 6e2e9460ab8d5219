"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getSheetForUser } from "@/db/queries/sheets";
import { getUserById } from "@/db/queries/users";
import { sessionAction } from "@/lib/auth/actions";
import { ApiError } from "@/lib/errors";
import { addEndpoint, removeEndpoint, rotateSecret, updateEndpoint } from "@/lib/webhooks/endpoints";
import { replayRange, resendDelivery } from "@/lib/webhooks/replay";
import { sendTestEvent } from "@/lib/webhooks/test-event";
import { currentAccess } from "@/lib/sheets/access/access-check";
import { requireRegistrantCanOpen } from "@/lib/sheets/access/access-lapse";
import { toSheetRecord } from "@/lib/sheets/sheet-record";

// The sheet's webhook endpoints, managed by its owner. Every action checks the sheet is theirs.
async function ownSheet(sheetId: string, userId: string) {
  const sheet = await getSheetForUser({ id: sheetId, userId });
  if (!sheet) throw new ApiError("not_found", "No such sheet in your account.");
  return sheet;
}

/** The owner's sheet, unless its registrant lost it in Google: then nothing of it is sent anywhere (DECISIONS 18). */
async function liveSheet(sheetId: string, userId: string) {
  const sheet = await currentAccess(toSheetRecord(await ownSheet(sheetId, userId)));
  requireRegistrantCanOpen(sheet);
  return sheet;
}

const page = (sheetId: string) => `/dashboard/sheets/${sheetId}/webhooks`;
const endpointFields = {
  url: z.string().trim().min(1, "Enter the URL that receives the webhooks.").max(2000),
  events: z.array(z.string()).max(10),
  tabs: z.array(z.string()).max(200),
};

export const addEndpointAction = sessionAction(
  z.object({ sheetId: z.string(), ...endpointFields }),
  async ({ sheetId, ...input }, user) => {
    await liveSheet(sheetId, user.id);
    const plan = (await getUserById({ id: user.id }))?.plan ?? "free_trial";
    const { endpoint, secret } = await addEndpoint(sheetId, plan, input);
    revalidatePath(page(sheetId));
    return { id: endpoint.id, secret };
  },
);

export const updateEndpointAction = sessionAction(
  z.object({ sheetId: z.string(), endpointId: z.string(), enabled: z.boolean(), ...endpointFields }),
  async ({ sheetId, endpointId, ...input }, user) => {
    await ownSheet(sheetId, user.id);
    await updateEndpoint(sheetId, endpointId, input);
    revalidatePath(page(sheetId));
    return null;
  },
);

export const rotateSecretAction = sessionAction(
  z.object({ sheetId: z.string(), endpointId: z.string() }),
  async ({ sheetId, endpointId }, user) => {
    await ownSheet(sheetId, user.id);
    return { secret: await rotateSecret(sheetId, endpointId) };
  },
);

export const removeEndpointAction = sessionAction(
  z.object({ sheetId: z.string(), endpointId: z.string() }),
  async ({ sheetId, endpointId }, user) => {
    await ownSheet(sheetId, user.id);
    await removeEndpoint(sheetId, endpointId);
    revalidatePath(page(sheetId));
    return null;
  },
);

export const resendAction = sessionAction(
  z.object({ sheetId: z.string(), endpointId: z.string(), deliveryId: z.string() }),
  async ({ sheetId, endpointId, deliveryId }, user) => {
    await liveSheet(sheetId, user.id);
    await resendDelivery({ userId: user.id, sheetId, endpointId, deliveryId });
    revalidatePath(page(sheetId));
    return null;
  },
);

export const replayAction = sessionAction(
  z.object({ sheetId: z.string(), endpointId: z.string(), from: z.iso.datetime(), to: z.iso.datetime() }),
  async ({ sheetId, endpointId, from, to }, user) => {
    await liveSheet(sheetId, user.id);
    const outcome = await replayRange({ userId: user.id, sheetId, endpointId, from: new Date(from), to: new Date(to) });
    revalidatePath(page(sheetId));
    return outcome;
  },
);

export const sendTestEventAction = sessionAction(
  z.object({ sheetId: z.string(), endpointId: z.string() }),
  async ({ sheetId, endpointId }, user) => {
    await liveSheet(sheetId, user.id);
    return sendTestEvent({ userId: user.id, sheetId, endpointId });
  },
);
