// One service instance for bench/fleet-quota.ts, in its own process on the stores the parent
// names: sets up a sheet or reads a tab through the rows route when the parent asks.
import { randomUUID } from "node:crypto";

type Message = { id: number } & ({ op: "sheet" } | { op: "read"; sheetId: string; key: string; fresh?: boolean });

async function main() {
  const { config } = await import("@/lib/env");
  const { openDatabase, setDatabase } = await import("@/db/client");
  const { migrateDatabase } = await import("@/db/migrator");
  const handle = openDatabase(config().database);
  await migrateDatabase(handle);
  setDatabase(handle);
  const { createUser } = await import("@/db/queries/users");
  const { serviceAccountFor } = await import("@/lib/google/identities");
  const { registerSheet } = await import("@/lib/sheets/registration/registration");
  const { proveAccessWithGoogle } = await import("@/testing/google");
  const { callRoute } = await import("@/testing/routes");
  const { GET } = await import("@/app/api/v1/[sheetId]/[tabName]/route");
  const googleUrl = config().google.rootUrl!;

  async function sheet() {
    const email = `fleet-${randomUUID()}@example.com`;
    const user = await createUser({ email, plan: "business" });
    const serviceAccount = await serviceAccountFor(user.id);
    const rows = [["id", "name", "qty"], ...Array.from({ length: 50 }, (_, i) => [i + 1, `item ${i}`, i % 7])];
    const res = await fetch(`${googleUrl}/__admin/spreadsheets`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        title: "Fleet bench",
        members: { [serviceAccount]: "writer", [email]: "owner" },
        tabs: [{ title: "Items", rows }],
      }),
    });
    const { spreadsheetId } = (await res.json()) as { spreadsheetId: string };
    await proveAccessWithGoogle(user, [spreadsheetId], email);
    const { apiKey } = await registerSheet({ userId: user.id, sheetUrl: spreadsheetId });
    return { sheetId: spreadsheetId, key: apiKey!, serviceAccount };
  }

  async function read(sheetId: string, key: string, fresh = false) {
    const headers: Record<string, string> = { "X-API-Key": key, ...(fresh ? { "Cache-Control": "no-cache" } : {}) };
    const res = await callRoute(GET, {
      path: `/api/v1/${sheetId}/Items`,
      params: { sheetId, tabName: "Items" },
      headers,
    });
    return { status: res.status, cache: res.headers.get("x-cache") };
  }

  process.on("message", (m: Message) => {
    const work = m.op === "sheet" ? sheet() : read(m.sheetId, m.key, m.fresh);
    work.then(
      (result) => process.send!({ id: m.id, result }),
      (err: unknown) => process.send!({ id: m.id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
  process.send!({ id: 0, result: "ready" });
}

void main();
