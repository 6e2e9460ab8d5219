// Credentials the service and emulators/google agree on when Google is emulated. A leaf that both
// import (emulators/google stays apart from the rest of lib/, and lib/ never imports emulators/).
import { createHash } from "node:crypto";

export const EMULATOR_DEFAULTS = {
  serviceAccountEmail: "sheetapi-local@sheetapi-local.iam.gserviceaccount.com",
  apiKey: "emulator-api-key",
  clientId: "sheetapi-local",
  clientSecret: "sheetapi-local-secret",
  /** The Google Cloud project number: the Picker's app id, which drive.file grants go to. */
  projectNumber: "100000000001",
  /** The account the emulator's OAuth consent signs in by default. */
  userEmail: "owner@example.com",
  /** The seeded "Acme Store" spreadsheet that demo mode registers. */
  demoSpreadsheetId: "1AcmeStoreDemoSpreadsheet0000000000000000001",
} as const;

/**
 * The Google subject id the emulator gives an account. Google's are stable numbers per account;
 * the emulator derives them from the e-mail, so the start command can link the demo account to
 * the address its banner names before anyone signs in.
 */
export const emulatedSubjectOf = (email: string) =>
  String(BigInt(`0x${createHash("sha256").update(email).digest("hex").slice(0, 15)}`));
