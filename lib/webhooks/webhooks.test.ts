// Change events and webhook deliveries end to end on the embedded PGlite (testing/webhook-suite.ts).
import { webhookSuite } from "@/testing/webhook-suite";

webhookSuite("pglite", undefined);
