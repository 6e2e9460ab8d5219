// Form keys end to end on the real stores (testing/real-stores.ts).
import { formKeySuite } from "@/testing/form-key-suite";
import { onRealStores } from "@/testing/real-stores";

await onRealStores("form keys", formKeySuite);
