// Change events and webhook deliveries end to end on the real Postgres (testing/webhook-suite.ts).
import { describe, it } from "vitest";
import { testPostgresUrl } from "@/testing/services";
import { webhookSuite } from "@/testing/webhook-suite";

const url = await testPostgresUrl();
if (url) webhookSuite("postgres", url);
else describe.skip("webhooks on postgres", () => it("needs Postgres", () => undefined));
