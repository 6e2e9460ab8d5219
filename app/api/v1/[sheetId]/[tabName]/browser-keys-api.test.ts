// Browser (publishable) keys end to end on the embedded stores: PGlite and the in-process limit store.
import { memoryStore } from "@/lib/store/store";
import { browserKeySuite } from "@/testing/browser-key-suite";

browserKeySuite("pglite, memory store", { makeStore: () => memoryStore() });
