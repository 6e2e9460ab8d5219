// The informational document of GET /api.
import pkg from "@/package.json";
import { config } from "@/lib/env";

export const SERVICE_NAME = "SheetAPI";

export function serviceInfo() {
  const base = config().appUrl;
  return {
    name: SERVICE_NAME,
    version: pkg.version,
    description: pkg.description,
    endpoints: {
      health: `GET ${base}/health`,
      register_public: `POST ${base}/register`,
      register_private: `GET ${base}/auth/google?sheet_url=<sheet_url>`,
      docs: `GET ${base}/docs/{sheetId}`,
      api: {
        read: `GET ${base}/api/v1/{sheetId}/{tabName}[/{rowId}]`,
        create: `POST ${base}/api/v1/{sheetId}/{tabName}`,
        update: `PUT ${base}/api/v1/{sheetId}/{tabName}/{rowId}`,
        delete: `DELETE ${base}/api/v1/{sheetId}/{tabName}/{rowId}`,
      },
    },
    documentation: `${base}/docs`,
  };
}
