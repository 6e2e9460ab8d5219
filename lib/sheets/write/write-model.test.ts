// A property-based check of the write rules (DECISIONS 2, 5-7a): fast-check (fixed seed) draws
// rounds of creates with and without ids, updates and deletes, sent at once from two instances
// while Google answers late, fails after applying or fails without applying; after each round the
// spreadsheet itself is compared with a model built from the answers the clients got.
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import type { FaultSpec } from "@/emulators/google/faults";
import { EMULATOR_SERVICE_ACCOUNT } from "@/emulators/google/seed";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { instanceClient, startInstance, type Instance, type InstanceClient } from "@/testing/instances";
import { expectHonestAnswers, storedRecords, type Outcome } from "@/testing/sheet-audit";
import { startTestService, type TestService } from "@/testing/service";
import { registeredKey } from "@/testing/google";

const TIMEOUT_MS = 300;
/** Longer than any fault below holds a write: after it, every copy has landed or been refused. */
const SETTLE_MS = TIMEOUT_MS + 900;
const TAB = "Items";
let svc: TestService;
let instances: Instance[];

beforeAll(async () => {
  svc = await startTestService({
    env: { GOOGLE_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS), GOOGLE_RETRY_BUDGET_MS: "800" },
  });
  setLimitStore(memoryStore());
  instances = [await startInstance(), await startInstance()];
});
afterAll(async () => {
  setLimitStore(undefined);
  await svc.stop();
});

type Op =
  | { kind: "create"; on: 0 | 1; id?: string }
  | { kind: "update"; on: 0 | 1; target: number; qty: number }
  | { kind: "delete"; on: 0 | 1; target: number };

const FAULTS: Omit<FaultSpec, "route">[] = [
  { delayMs: TIMEOUT_MS + 500 },
  { answerDelayMs: TIMEOUT_MS + 300 },
  { status: 500, applied: true },
  { status: 500 },
];

const on = fc.constantFrom<0 | 1>(0, 1);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("create" as const), on }),
  fc.record({ kind: fc.constant("create" as const), on, id: fc.constantFrom("7", "8", "20", "x1", "1") }),
  fc.record({ kind: fc.constant("update" as const), on, target: fc.nat(30), qty: fc.integer({ min: 100, max: 999 }) }),
  fc.record({ kind: fc.constant("delete" as const), on, target: fc.nat(30) }),
);
const round = fc.record({
  ops: fc.array(op, { minLength: 2, maxLength: 5 }),
  fault: fc.option(fc.record({ spec: fc.constantFrom(...FAULTS), count: fc.integer({ min: 1, max: 3 }) }), {
    nil: undefined,
  }),
});

let serial = 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freshSheet(): Promise<InstanceClient[]> {
  const rows = [["id", "name", "qty"], ...[1, 2, 3, 4].map((i) => [i, `seed ${i}`, i])];
  const id = String(
    (
      await svc.admin("/spreadsheets", {
        title: "Model",
        members: { [EMULATOR_SERVICE_ACCOUNT]: "writer" },
        tabs: [{ title: TAB, rows }],
      })
    ).spreadsheetId,
  );
  const userId = (await createUser({ email: `model-${++serial}@example.com`, plan: "business" })).id;
  const key = await registeredKey({ id: userId, email: null }, id);
  sheetId = id;
  return instances.map((i) => instanceClient(i, id, key));
}
let sheetId = "";

it(
  "the sheet always matches the model of the answers, across two instances and a late Google",
  { timeout: 240_000 },
  async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(round, { minLength: 2, maxLength: 4 }), async (rounds) => {
        const clients = await freshSheet();
        const model = new Map(
          storedRecords(svc.google, sheetId, TAB).map((r) => [r.id!, { name: r.name!, qty: r.qty! }]),
        );
        for (const { ops, fault } of rounds) {
          svc.google.faults.clear();
          if (fault) svc.google.faults.add({ route: "spreadsheets.batchUpdate", ...fault.spec, count: fault.count });
          // Updates and deletes target rows the model knows, one request per row in a round.
          const known = [...model.keys()];
          const busy = new Set<string>();
          type Planned = Op & { id?: string; name?: string };
          const planned = ops.flatMap((o): Planned[] => {
            if (o.kind === "create") return [{ ...o, name: `row ${++serial}` }];
            const id = known[o.target % Math.max(known.length, 1)] ?? "404";
            if (busy.has(id)) return [];
            busy.add(id);
            return [{ ...o, id }];
          });
          const outcomes = await Promise.all(
            planned.map(async (o): Promise<Outcome & { before?: { name: string; qty: string } }> => {
              const c = clients[o.on]!;
              const before = o.id ? model.get(o.id) : undefined;
              if (o.kind === "create") {
                const res = await c.create(
                  TAB,
                  o.id === undefined ? { name: o.name!, qty: 1 } : { id: o.id, name: o.name!, qty: 1 },
                );
                return { kind: "create", name: o.name!, id: o.id, status: res.status, body: res.body, before };
              }
              if (o.kind === "update") {
                const res = await c.update(TAB, o.id!, { qty: o.qty });
                return {
                  kind: "update",
                  id: o.id,
                  field: "qty",
                  value: String(o.qty),
                  status: res.status,
                  body: res.body,
                  before,
                };
              }
              const res = await c.remove(TAB, o.id!);
              return { kind: "delete", id: o.id, status: res.status, body: res.body, before };
            }),
          );
          await sleep(SETTLE_MS);
          expectHonestAnswers(outcomes);
          const sheet = storedRecords(svc.google, sheetId, TAB);
          const ids = sheet.map((r) => r.id);
          expect(ids.length, `two rows with one id: ${ids.join(",")}`).toBe(new Set(ids).size);
          const inSheet = new Map(sheet.map((r) => [r.id!, r]));
          // The model moves by each answer; an unknown outcome (504) takes what the sheet shows,
          // which must be one of the two states the write allows. The requests of a round run at
          // once, so the answers, not the order they were sent in, tell the order they took: a
          // create that took an id a delete of the round removed (201 and 200) came after it, and
          // one refused for that id (409 and 200) before it. So a 409 is checked against the ids
          // at the start of the round and the ones the round's creates took, and the model takes
          // the updates and deletes before the creates.
          const takenNow = new Set(
            outcomes
              .filter((o) => o.kind === "create" && o.status === 201)
              .map((o) => (o.body.data as { rows: { id: string }[] }).rows[0]!.id),
          );
          const atStart = new Set(model.keys());
          const inTakenOrder = [
            ...outcomes.filter((o) => o.kind !== "create"),
            ...outcomes.filter((o) => o.kind === "create"),
          ];
          for (const o of inTakenOrder) {
            if (o.kind === "create") {
              const found = sheet.filter((r) => r.name === o.name);
              expect(found.length, `create ${o.name} (${o.status})`).toBe(
                o.status === 201 ? 1 : o.status === 504 ? found.length : 0,
              );
              expect(found.length).toBeLessThanOrEqual(1);
              if (o.status === 409)
                expect(
                  atStart.has(o.id!) || takenNow.has(o.id!) || sheet.some((r) => r.id === o.id && r.name !== o.name),
                  `409 for ${o.id}`,
                ).toBe(true);
              if (o.status === 201) {
                const given = (o.body.data as { rows: { id: string }[] }).rows[0]!.id;
                if (o.id !== undefined) expect(given).toBe(o.id);
                expect(found[0]!.id).toBe(given);
                model.set(given, { name: o.name!, qty: "1" });
              }
              if (o.status === 504 && found[0]) model.set(found[0].id!, { name: o.name!, qty: "1" });
            } else if (o.kind === "update") {
              if (o.status === 404) expect(o.before, `404 for a known row ${o.id}`).toBeUndefined();
              if (o.status === 200) model.set(o.id!, { ...o.before!, qty: o.value! });
              if (o.status === 504) {
                expect([o.before!.qty, o.value]).toContain(inSheet.get(o.id!)?.qty);
                model.set(o.id!, { ...o.before!, qty: inSheet.get(o.id!)!.qty! });
              }
            } else {
              if (o.status === 404) expect(o.before, `404 for a known row ${o.id}`).toBeUndefined();
              if (o.status === 200 || (o.status === 504 && !inSheet.has(o.id!))) model.delete(o.id!);
            }
          }
          expect(Object.fromEntries(sheet.map((r) => [r.id!, { name: r.name!, qty: r.qty! }]))).toEqual(
            Object.fromEntries(model),
          );
        }
      }),
      { seed: 20261123, numRuns: 6, endOnFailure: true },
    );
  },
);
