// The spreadsheets every fresh emulator starts with. Ids are stable so docs, tests and the demo
// account can name them.
import { EMULATOR_DEFAULTS } from "@/lib/emulator-defaults";
import type { SpreadsheetSeed } from "./model";

export const EMULATOR_SERVICE_ACCOUNT = EMULATOR_DEFAULTS.serviceAccountEmail;
export const EMULATOR_API_KEY = EMULATOR_DEFAULTS.apiKey;
export const EMULATOR_USER = EMULATOR_DEFAULTS.userEmail;

/** "Acme Store": writable by the service account, readable by anyone with the link. */
export const DEMO_SPREADSHEET_ID = EMULATOR_DEFAULTS.demoSpreadsheetId;
/** Readable by anyone with the link, shared with nobody: public and read-only. */
export const PUBLIC_READONLY_SPREADSHEET_ID = "1PublicReadOnlySpreadsheet000000000000000002";
/** Private to the emulator's user: reachable only through the owner's own OAuth grant. */
export const PRIVATE_SPREADSHEET_ID = "1PrivateOwnerSpreadsheet00000000000000000003";
/** In the shared drive "Operations", where the service account is a member (Content manager). */
export const SHARED_DRIVE_SPREADSHEET_ID = "1SharedDriveSpreadsheet000000000000000000006";
export const SHARED_DRIVE_ID = "0AOperationsSharedDriveUk9PVA";
/** Shared with no one at all. */
export const NO_ACCESS_SPREADSHEET_ID = "1NoAccessSpreadsheet000000000000000000000004";
/** "Bestellungen": a de_DE spreadsheet (Europe/Berlin), writable by the service account. */
export const GERMAN_SPREADSHEET_ID = "1GermanOrdersSpreadsheet00000000000000000005";

const date = { type: "DATE", pattern: "yyyy-mm-dd" } as const;

// Dates are Sheets serial numbers (days since 1899-12-30): 45292 is 2024-01-01.
export function seedSpreadsheets(serviceAccount: string = EMULATOR_SERVICE_ACCOUNT): SpreadsheetSeed[] {
  return [
    {
      spreadsheetId: DEMO_SPREADSHEET_ID,
      title: "Acme Store",
      linkAccess: "reader",
      members: { [serviceAccount]: "writer", [EMULATOR_USER]: "owner" },
      tabs: [
        {
          title: "Products",
          rows: [
            ["id", "name", "price", "in_stock", "released", "rating", "notes"],
            [1, "Desk lamp", 24.5, true, 45292, 4.6, "Warm white"],
            [2, "Standing desk", 399, true, 45335, 4.8, null],
            [3, "Monitor arm", 89.99, false, 45400, 4.1, "Back in March"],
            [4, "Ergonomic chair", 249, true, 45123, 4.4, null],
            [5, "Cable tray", 19, true, 45500, null, "Fits most desks"],
            [6, "Footrest", 35, false, 45550, 3.9, null],
          ],
          columnFormats: {
            price: { type: "CURRENCY", pattern: '"$"#,##0.00' },
            released: date,
            rating: { type: "NUMBER", pattern: "0.0" },
          },
        },
        {
          title: "Team Members",
          rows: [
            ["name", "email", "role", "start_date", "active"],
            ["Ada Lovelace", "ada@example.com", "Engineering", 44927, true],
            ["Grace Hopper", "grace@example.com", "Engineering", 45017, true],
            [],
            ["Katherine Johnson", "katherine@example.com", "Research", 45200, false],
            ["Alan Turing", "", "Research", null, true],
          ],
          columnFormats: { start_date: date },
        },
        {
          title: "Orders",
          rows: [
            ["order_ref", "product_id", "quantity", "discount", "placed_at"],
            ["A-1001", 1, 2, 0, 45301.40625],
            ["A-1002", 3, 1, 0.1, 45320.75],
            ["A-1003", 2, 1, 0.15, 45390.5],
          ],
          columnFormats: {
            discount: { type: "PERCENT", pattern: "0%" },
            placed_at: { type: "DATE_TIME", pattern: "yyyy-mm-dd hh:mm:ss" },
          },
        },
      ],
    },
    {
      spreadsheetId: PUBLIC_READONLY_SPREADSHEET_ID,
      title: "Public Price List",
      linkAccess: "reader",
      members: { [EMULATOR_USER]: "owner" },
      tabs: [
        {
          title: "Prices",
          rows: [
            ["sku", "price"],
            ["A1", 10],
            ["B2", 12.5],
          ],
        },
      ],
    },
    {
      spreadsheetId: PRIVATE_SPREADSHEET_ID,
      title: "Private Budget",
      members: { [EMULATOR_USER]: "owner" },
      tabs: [
        {
          title: "Budget",
          rows: [
            ["id", "item", "amount"],
            [1, "Rent", 1200],
            [2, "Food", 400],
          ],
        },
      ],
    },
    {
      // Shows numbers as a German user sees them: "1.234,5", "24,50 €", "15%", "15.01.2024".
      spreadsheetId: GERMAN_SPREADSHEET_ID,
      title: "Bestellungen",
      locale: "de_DE",
      timeZone: "Europe/Berlin",
      members: { [serviceAccount]: "writer", [EMULATOR_USER]: "owner" },
      tabs: [
        {
          title: "Bestellungen",
          rows: [
            ["id", "artikel", "menge", "gewicht", "preis", "rabatt", "bestellt", "geliefert", "bezahlt", "summe"],
            [1, "Schreibtischlampe", 2, 24.5, 24.5, 0.15, 45306, 45308.40625, true, "=E2*C2"],
            [2, "Stehpult", 10, 1234.5, 1399, 0, 45455, 45460.5, false, "=E3*C3"],
            [3, "Monitorarm", 1, 999.9, 89.99, 0.05, 45292, 45299.5, true, "=E4*C4"],
            [4, "Bürostuhl", 3, 8.25, 249, 0.1, 45600, 45610.3125, false, "=E5*C5"],
          ],
          columnFormats: {
            gewicht: { type: "NUMBER", pattern: "#,##0.0" },
            preis: { type: "CURRENCY", pattern: "#,##0.00 [$€]" },
            rabatt: { type: "PERCENT", pattern: "0%" },
            bestellt: { type: "DATE", pattern: "dd.MM.yyyy" },
            geliefert: { type: "DATE_TIME", pattern: "dd.MM.yyyy HH:mm" },
          },
        },
      ],
    },
    {
      spreadsheetId: SHARED_DRIVE_SPREADSHEET_ID,
      title: "Team Roadmap",
      driveId: SHARED_DRIVE_ID,
      members: { [serviceAccount]: "writer", [EMULATOR_USER]: "owner" },
      tabs: [
        {
          title: "Milestones",
          rows: [
            ["id", "milestone", "due"],
            [1, "Beta", 45400],
            [2, "Launch", 45500],
          ],
          columnFormats: { due: date },
        },
      ],
    },
    {
      spreadsheetId: NO_ACCESS_SPREADSHEET_ID,
      title: "Nobody's Sheet",
      members: { "someone-else@example.com": "owner" },
      tabs: [
        {
          title: "Secrets",
          rows: [
            ["a", "b"],
            [1, 2],
          ],
        },
      ],
    },
  ];
}
