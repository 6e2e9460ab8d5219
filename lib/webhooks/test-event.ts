// A test delivery from the webhooks page: one signed POST of a `webhook.test` event, now, answered
// with what the receiver said; no change event, never retried. README.md ("Test deliveries").
import { randomBytes } from "node:crypto";
import type { ChangeEvent } from "@/db/schema";
import { limitAccountAction } from "@/lib/abuse/account-actions";
import { attempt } from "./deliver";
import { owned } from "./endpoints";

const TEST_EVENT_TYPE = "webhook.test";

export interface TestOutcome {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
}

export async function sendTestEvent({
  userId,
  sheetId,
  endpointId,
}: {
  userId: string;
  sheetId: string;
  endpointId: string;
}): Promise<TestOutcome> {
  const endpoint = await owned(sheetId, endpointId);
  await limitAccountAction(userId, "resend");
  const now = new Date();
  const event = {
    id: `msg_test_${randomBytes(12).toString("base64url")}`,
    type: TEST_EVENT_TYPE,
    createdAt: now,
    data: {
      sheet_id: sheetId,
      endpoint_id: endpointId,
      message: "A test event sent from the SheetAPI dashboard: no row changed.",
    },
  } as ChangeEvent;
  const { ok, status, latencyMs, error } = await attempt(endpoint, event, now);
  return { ok, status, latencyMs, error };
}
