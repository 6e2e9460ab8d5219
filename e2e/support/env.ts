// Where the e2e server runs and what it was started with.
export const E2E = {
  port: 3210,
  googlePort: 4210,
  baseUrl: "http://127.0.0.1:3210",
  googleUrl: "http://127.0.0.1:4210",
  dataDir: ".data/e2e",
  demoKey: "shk_e2eDemoKey0000000000000000000000000000",
  demoSheetId: "1AcmeStoreDemoSpreadsheet0000000000000000001",
};
