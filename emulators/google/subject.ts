import { createHash } from "node:crypto";

/** Google's subject ids are stable numbers per account; the emulator derives them from the e-mail. */
export const subjectOf = (email: string) => String(BigInt(`0x${createHash("sha256").update(email).digest("hex").slice(0, 15)}`));
