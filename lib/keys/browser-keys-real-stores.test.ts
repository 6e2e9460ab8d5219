// Browser (publishable) keys end to end on the real stores (testing/real-stores.ts).
import { browserKeySuite } from "@/testing/browser-key-suite";
import { onRealStores } from "@/testing/real-stores";

await onRealStores("browser keys", browserKeySuite);
