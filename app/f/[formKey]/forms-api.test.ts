// Form keys end to end on the embedded stores: PGlite and the in-process limit store.
import { memoryStore } from "@/lib/store/store";
import { formKeySuite } from "@/testing/form-key-suite";

formKeySuite("pglite, memory store", { makeStore: () => memoryStore() });
