// Credentials the service and emulators/google agree on when Google is emulated.
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
