// A sheet's webhook endpoints. The owner-facing queries take the sheet id the owner was checked
// against, so an endpoint id of another sheet finds nothing; the delivery worker's go by id.
import { and, eq } from "drizzle-orm";
import { getDb, type Database } from "../client";
import { sheets, webhookEndpoints, type NewWebhookEndpoint as NewEndpoint, type WebhookEndpoint } from "../schema";

type EndpointSet = Partial<Omit<NewEndpoint, "id" | "sheetId">>;

const ofSheet = (sheetId: string, endpointId: string) =>
  and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.sheetId, sheetId));

export async function listEndpoints({ sheetId }: { sheetId: string }): Promise<WebhookEndpoint[]> {
  return getDb()
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.sheetId, sheetId))
    .orderBy(webhookEndpoints.createdAt);
}

/** The sheet's enabled endpoints (those new events are delivered to). */
export async function listEnabledEndpoints(
  { sheetId }: { sheetId: string },
  db: Database = getDb(),
): Promise<WebhookEndpoint[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.sheetId, sheetId), eq(webhookEndpoints.enabled, true)));
}

export async function insertEndpoint(input: NewEndpoint & { sheetId: string }): Promise<WebhookEndpoint> {
  const [endpoint] = await getDb().insert(webhookEndpoints).values(input).returning();
  return endpoint!;
}

/** The sheet's endpoint; `forUpdate`: its row locked, in the transaction `db`. */
export async function getEndpointForSheet(
  { sheetId, endpointId, forUpdate = false }: { sheetId: string; endpointId: string; forUpdate?: boolean },
  db: Pick<Database, "select"> = getDb(),
): Promise<WebhookEndpoint | undefined> {
  const query = db.select().from(webhookEndpoints).where(ofSheet(sheetId, endpointId));
  const [endpoint] = await (forUpdate ? query.for("update") : query);
  return endpoint;
}

/** Whether the sheet has such an endpoint (its id alone is read). */
export async function endpointOfSheetExists({
  sheetId,
  endpointId,
}: {
  sheetId: string;
  endpointId: string;
}): Promise<boolean> {
  const [found] = await getDb()
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(ofSheet(sheetId, endpointId));
  return found !== undefined;
}

export async function updateEndpointOfSheet(
  { sheetId, endpointId, set }: { sheetId: string; endpointId: string; set: EndpointSet },
  db: Database = getDb(),
): Promise<void> {
  await db.update(webhookEndpoints).set(set).where(ofSheet(sheetId, endpointId));
}

export async function deleteEndpointOfSheet({
  sheetId,
  endpointId,
}: {
  sheetId: string;
  endpointId: string;
}): Promise<void> {
  await getDb().delete(webhookEndpoints).where(ofSheet(sheetId, endpointId));
}

/** An endpoint by id, for the delivery worker. */
export async function getEndpoint({ id }: { id: string }): Promise<WebhookEndpoint | undefined> {
  const [endpoint] = await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return endpoint;
}

/** The account that owns the endpoint's sheet; undefined when the endpoint is gone. */
export async function endpointAccount({ id }: { id: string }): Promise<string | undefined> {
  const [owner] = await getDb()
    .select({ accountId: sheets.userId })
    .from(webhookEndpoints)
    .innerJoin(sheets, eq(sheets.id, webhookEndpoints.sheetId))
    .where(eq(webhookEndpoints.id, id));
  return owner?.accountId;
}

/** What the delivery worker notes on an endpoint: its last success, since when it fails, its disabling. */
export async function setEndpointHealth({
  id,
  set,
}: {
  id: string;
  set: Pick<EndpointSet, "lastSuccessAt" | "failingSince" | "enabled" | "disabledReason">;
}): Promise<void> {
  await getDb().update(webhookEndpoints).set(set).where(eq(webhookEndpoints.id, id));
}
