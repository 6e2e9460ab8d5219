// One in-process service per test file with the demo sheet registered for a business account,
// for suites that make Google fail in ways of their own: each test starts with no faults, a cold
// cache of the demo sheet and no Google calls counted.
import { afterAll, beforeAll, beforeEach } from "vitest";
import { createUser } from "@/db/queries/users";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { registeredKey } from "@/testing/google";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";

export interface DemoSheetSuite {
  svc: TestService;
  /** The rows API of the demo sheet, with the account's key. */
  api: ReturnType<typeof rowsClient>;
  userId: string;
}

/** Registers the hooks; the suite's fields are set once its beforeAll has run. */
export function demoSheetSuite(
  email: string,
  options: Parameters<typeof startTestService>[0],
  setup?: (svc: TestService) => Promise<void>,
): DemoSheetSuite {
  const suite = {} as DemoSheetSuite;
  beforeAll(async () => {
    suite.svc = await startTestService(options);
    setLimitStore(memoryStore());
    await setup?.(suite.svc);
    const user = await createUser({ email, plan: "business" });
    suite.userId = user.id;
    suite.api = rowsClient(DEMO_SPREADSHEET_ID, await registeredKey(user, DEMO_SPREADSHEET_ID));
  });
  afterAll(async () => {
    setLimitStore(undefined);
    await suite.svc.stop();
  });
  beforeEach(async () => {
    suite.svc.google.faults.clear();
    const { invalidateSheetData } = await import("@/lib/sheets/read/tab-cache");
    await invalidateSheetData(DEMO_SPREADSHEET_ID);
    suite.svc.google.calls.clear();
  });
  return suite;
}
