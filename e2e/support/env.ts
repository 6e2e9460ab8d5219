// Where the e2e server runs and what it was started with.
export const E2E = {
  port: 3210,
  googlePort: 4210,
  // "localhost", not 127.0.0.1: Next.js names every loopback host localhost in its URLs.
  baseUrl: "http://localhost:3210",
  googleUrl: "http://127.0.0.1:4210",
  dataDir: ".data/e2e",
  demoSheetId: "1AcmeStoreDemoSpreadsheet0000000000000000001",
  privateSheetId: "1PrivateOwnerSpreadsheet00000000000000000003",
};
