// emulators/google: the Sheets v4 and Drive v3 calls the service makes, Google-like OAuth/OpenID
// Connect (oauth2-mock-server), fault injection and an admin API for tests, on one loopback port.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { badRequest, fileNotFound, GoogleError, notFound } from "./errors";
import { checkFileScope } from "./drive-file";
import { applyFields, parseDriveFields } from "./fields";
import { Faults, type FaultSpec } from "./faults";
import { authorize, identify, roleOf } from "./identity";
import {
  buildSpreadsheet,
  DEFAULT_MODIFIED_TIME_LAG_MS,
  settledModifiedTime,
  touch,
  type Role,
  type Spreadsheet,
  type SpreadsheetSeed,
  type TabSeed,
} from "./model";
import { createEmulatorOAuth, OAUTH_PATHS } from "./oauth";
import { handlePicker } from "./picker";
import { EMULATOR_API_KEY, EMULATOR_SERVICE_ACCOUNT, seedSpreadsheets } from "./seed";
import { getDeveloperMetadata, searchDeveloperMetadata } from "./metadata";
import { batchUpdate } from "./sheets-api/batch-update";
import { isTrue } from "./sheets-api/ranges";
import { getSpreadsheet } from "./sheets-api/spreadsheet-get";
import { appendValues } from "./sheets-api/values-append";
import { batchClearValues, clearValues } from "./sheets-api/values-clear";
import { readValues } from "./sheets-api/values-get";
import { batchUpdateValues, updateValues } from "./sheets-api/values-update";
import { SpreadsheetStore } from "./store";

export interface GoogleEmulatorOptions {
  port?: number;
  host?: string;
  /** JSON file that keeps the spreadsheets across restarts (and the refresh tokens granted, beside it in `*.grants.json`); in memory only when absent. */
  dataFile?: string;
  serviceAccountEmail?: string;
  /** Public keys (PEM) Google holds for service accounts, as if created or uploaded in IAM. */
  serviceAccountKeys?: { email: string; publicKey: string }[];
  apiKeys?: string[];
  /** How long Drive's modifiedTime lags an edit (default about 3 minutes, as reported of Google). */
  modifiedTimeLagMs?: number;
  log?: (line: string) => void;
}

export interface GoogleEmulator {
  url: string;
  port: number;
  store: SpreadsheetStore;
  faults: Faults;
  calls: Map<string, number>;
  /** Changes how long Drive's modifiedTime lags edits (until the next reset). */
  setModifiedTimeLag(ms: number): void;
  stop(): Promise<void>;
}

type Json = Record<string, unknown>;
interface Call {
  req: IncomingMessage;
  url: URL;
  body: Json;
  /** The API method being served (`values.get`, `files.get`, ...). */
  route?: string;
}

async function readBody(req: IncomingMessage): Promise<{ raw: string; json: Json }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  if (!raw || !(req.headers["content-type"] ?? "").includes("json")) return { raw, json: {} };
  try {
    return { raw, json: JSON.parse(raw) as Json };
  } catch {
    throw badRequest(`Invalid JSON payload received. Unexpected token.\n${raw.slice(0, 40)}`);
  }
}

/** valueRenderOption, majorDimension and dateTimeRenderOption of a values read. */
function renderOptions(params: URLSearchParams): [string?, string?, string?] {
  return [
    params.get("valueRenderOption") ?? undefined,
    params.get("majorDimension") ?? undefined,
    params.get("dateTimeRenderOption") ?? undefined,
  ];
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=UTF-8",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

export async function startGoogleEmulator(options: GoogleEmulatorOptions = {}): Promise<GoogleEmulator> {
  const serviceAccount = options.serviceAccountEmail ?? EMULATOR_SERVICE_ACCOUNT;
  const apiKeys = new Set(options.apiKeys ?? [EMULATOR_API_KEY]);
  const store = new SpreadsheetStore(() => seedSpreadsheets(serviceAccount), options.dataFile);
  const faults = new Faults();
  const calls = new Map<string, number>();
  const log = options.log ?? (() => {});
  const configuredLag = options.modifiedTimeLagMs ?? DEFAULT_MODIFIED_TIME_LAG_MS;
  let modifiedTimeLag = configuredLag;
  // Beside the spreadsheets' file: what Google granted survives a restart, as the files do.
  const oauth = await createEmulatorOAuth({
    grantsFile: options.dataFile ? `${options.dataFile.replace(/\.json$/, "")}.grants.json` : undefined,
  });
  for (const { email, publicKey } of options.serviceAccountKeys ?? []) oauth.serviceAccountKeys.add(email, publicKey);

  /** The caller's spreadsheet, after checking the token's scopes for `route` and the caller's role. */
  function spreadsheetFor(call: Call, id: string, need: "read" | "write", route = call.route) {
    const caller = identify(call.req, call.url, apiKeys, oauth.tokens, route);
    const sheet = store.get(id);
    if (!sheet) throw notFound();
    checkFileScope(sheet, caller, "sheets");
    authorize(sheet, caller, need);
    return sheet;
  }

  /** Drive's files.get: a file the caller cannot see, or one in a shared drive asked for without
   * supportsAllDrives=true, is "File not found" (404), never 403. */
  function driveFile(call: Call, id: string) {
    const caller = identify(call.req, call.url, apiKeys, oauth.tokens, "files.get");
    const sheet = store.get(id);
    const allDrives =
      isTrue(call.url.searchParams.get("supportsAllDrives")) || isTrue(call.url.searchParams.get("supportsTeamDrives"));
    if (!sheet || (sheet.driveId && !allDrives)) throw fileNotFound(id);
    checkFileScope(sheet, caller, "drive");
    authorize(sheet, caller, "read", () => fileNotFound(id));
    return { sheet, caller };
  }

  /**
   * batchUpdate's includeSpreadsheetInResponse: the spreadsheet after the batch, limited to
   * responseRanges, with grid data when responseIncludeGridData is true (as spreadsheets.get).
   */
  function withUpdatedSpreadsheet(reply: Json, sheet: Spreadsheet, c: Call): Json {
    if (c.body.includeSpreadsheetInResponse !== true) return reply;
    const params = new URLSearchParams();
    for (const range of (c.body.responseRanges as string[] | undefined) ?? []) params.append("ranges", String(range));
    if (c.body.responseIncludeGridData === true) params.set("includeGridData", "true");
    return { ...reply, updatedSpreadsheet: getSpreadsheet(sheet, params, `http://${c.req.headers.host}`) };
  }

  /** Sheets and Drive routes: [method, pattern, route name, access, handler]. */
  type Handler = (call: Call, id: string, range: string) => Json;
  const api: [string, RegExp, string, "read" | "write", Handler][] = [
    [
      "GET",
      /^\/v4\/spreadsheets\/([^/:]+)$/,
      "spreadsheets.get",
      "read",
      (c, id) => getSpreadsheet(spreadsheetFor(c, id, "read"), c.url.searchParams, `http://${c.req.headers.host}`),
    ],
    [
      "POST",
      /^\/v4\/spreadsheets\/([^/:]+):batchUpdate$/,
      "spreadsheets.batchUpdate",
      "write",
      (c, id) =>
        store.mutate(spreadsheetFor(c, id, "write").spreadsheetId, (s) =>
          withUpdatedSpreadsheet(batchUpdate(s, c.body), s, c),
        ),
    ],
    [
      "POST",
      /^\/v4\/spreadsheets\/([^/:]+)\/developerMetadata:search$/,
      "developerMetadata.search",
      "read",
      (c, id) => searchDeveloperMetadata(spreadsheetFor(c, id, "read"), c.body),
    ],
    [
      "GET",
      /^\/v4\/spreadsheets\/([^/:]+)\/developerMetadata\/(\d+)$/,
      "developerMetadata.get",
      "read",
      (c, id, metadataId) => {
        const found = getDeveloperMetadata(spreadsheetFor(c, id, "read"), Number(metadataId));
        if (!found) throw new GoogleError(404, "NOT_FOUND", `No developer metadata with ID: ${metadataId}`, "notFound");
        return found;
      },
    ],
    [
      "GET",
      /^\/v4\/spreadsheets\/([^/:]+)\/values:batchGet$/,
      "values.batchGet",
      "read",
      (c, id) => {
        const sheet = spreadsheetFor(c, id, "read");
        const valueRanges = c.url.searchParams
          .getAll("ranges")
          .map((r) => readValues(sheet, r, ...renderOptions(c.url.searchParams)));
        return { spreadsheetId: id, valueRanges };
      },
    ],
    [
      "POST",
      /^\/v4\/spreadsheets\/([^/:]+)\/values:batchUpdate$/,
      "values.batchUpdate",
      "write",
      (c, id) => store.mutate(spreadsheetFor(c, id, "write").spreadsheetId, (s) => batchUpdateValues(s, c.body)),
    ],
    [
      "POST",
      /^\/v4\/spreadsheets\/([^/:]+)\/values:batchClear$/,
      "values.batchClear",
      "write",
      (c, id) => store.mutate(spreadsheetFor(c, id, "write").spreadsheetId, (s) => batchClearValues(s, c.body)),
    ],
    [
      "POST",
      /^\/v4\/spreadsheets\/([^/:]+)\/values\/([^/]+):append$/,
      "values.append",
      "write",
      (c, id, range) =>
        store.mutate(spreadsheetFor(c, id, "write").spreadsheetId, (s) =>
          appendValues(s, range, c.body, c.url.searchParams),
        ),
    ],
    [
      "POST",
      /^\/v4\/spreadsheets\/([^/:]+)\/values\/([^/]+):clear$/,
      "values.clear",
      "write",
      (c, id, range) => store.mutate(spreadsheetFor(c, id, "write").spreadsheetId, (s) => clearValues(s, range)),
    ],
    [
      "PUT",
      /^\/v4\/spreadsheets\/([^/:]+)\/values\/([^/]+)$/,
      "values.update",
      "write",
      (c, id, range) =>
        store.mutate(spreadsheetFor(c, id, "write").spreadsheetId, (s) =>
          updateValues(s, range, c.body, c.url.searchParams),
        ),
    ],
    [
      "GET",
      /^\/v4\/spreadsheets\/([^/:]+)\/values\/([^/]+)$/,
      "values.get",
      "read",
      (c, id, range) => readValues(spreadsheetFor(c, id, "read"), range, ...renderOptions(c.url.searchParams)),
    ],
    [
      "GET",
      /^\/drive\/v3\/files\/([^/]+)$/,
      "files.get",
      "read",
      (c, id) => {
        const { sheet, caller } = driveFile(c, id);
        const role = roleOf(sheet, caller);
        // Without `fields`, Drive v3 answers kind, id, name and mimeType only; with it, exactly what it names.
        const fields = c.url.searchParams.get("fields");
        const selection = parseDriveFields(fields ?? "kind,id,name,mimeType");
        const modifiedTime = settledModifiedTime(sheet, modifiedTimeLag);
        const file = {
          kind: "drive#file",
          id,
          name: sheet.title,
          mimeType: "application/vnd.google-apps.spreadsheet",
          createdTime: sheet.createdTime ?? modifiedTime,
          modifiedTime,
          version: String(sheet.version),
          ...(sheet.driveId ? { driveId: sheet.driveId } : {}),
          ownedByMe: role === "owner",
          capabilities: { canEdit: role === "writer" || role === "owner" },
        };
        return applyFields(file, selection) as Json;
      },
    ],
  ];

  async function handleApi(call: Call, res: ServerResponse): Promise<boolean> {
    const path = call.url.pathname;
    for (const [method, pattern, route, , handler] of api) {
      const m = pattern.exec(path);
      if (!m || call.req.method !== method) continue;
      const id = decodeURIComponent(m[1]!);
      calls.set(route, (calls.get(route) ?? 0) + 1);
      const fault = faults.take(route, id);
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      if (fault?.delayMs) await sleep(fault.delayMs);
      if (fault?.error && !fault.applied) throw fault.error;
      const result = handler({ ...call, route }, id, m[2] ? decodeURIComponent(m[2]) : "");
      if (fault?.answerDelayMs) await sleep(fault.answerDelayMs);
      if (fault?.error) throw fault.error;
      // The client may have given up long ago: the change above stands, the answer goes nowhere.
      if (!res.destroyed) send(res, 200, result);
      return true;
    }
    return false;
  }

  async function handleAdmin(call: Call, res: ServerResponse): Promise<void> {
    const { req, url, body } = call;
    const path = url.pathname.replace(/^\/__admin/, "");
    const sheetPath = /^\/spreadsheets\/([^/]+)(\/values|\/access|\/tabs|\/copy)?$/.exec(path);
    if (path === "/health") return send(res, 200, { ok: true });
    if (path === "/reset" && req.method === "POST") {
      store.reset();
      faults.clear();
      calls.clear();
      oauth.reset();
      modifiedTimeLag = configuredLag;
      return send(res, 200, { ok: true });
    }
    if (path === "/faults") {
      if (req.method === "POST") faults.add(body as unknown as FaultSpec);
      if (req.method === "DELETE") faults.clear();
      return send(res, 200, { faults: faults.list() });
    }
    if (path === "/calls") {
      if (req.method === "DELETE") calls.clear();
      return send(res, 200, Object.fromEntries(calls));
    }
    if (path === "/revoke" && req.method === "POST") {
      oauth.revoke(String(body.email));
      return send(res, 200, { ok: true });
    }
    // "Upload a public key" for a service account, as IAM allows: its JWT-bearer assertions then verify.
    if (path === "/service-account-keys" && req.method === "POST") {
      oauth.serviceAccountKeys.add(String(body.email), String(body.publicKey));
      return send(res, 200, { ok: true });
    }
    if (path === "/service-account-keys" && req.method === "DELETE") {
      oauth.serviceAccountKeys.deleteAll(String(body.email));
      return send(res, 200, { ok: true });
    }
    if (path === "/modified-time-lag" && req.method === "POST") {
      modifiedTimeLag = Number(body.ms);
      return send(res, 200, { ok: true, ms: modifiedTimeLag });
    }
    if (path === "/token-ttl" && req.method === "POST") {
      oauth.setAccessTokenTtl(Number(body.seconds));
      return send(res, 200, { ok: true });
    }
    if (path === "/spreadsheets" && req.method === "POST") {
      const sheet = store.add(body as unknown as SpreadsheetSeed);
      return send(res, 201, { spreadsheetId: sheet.spreadsheetId });
    }
    if (sheetPath) {
      const id = decodeURIComponent(sheetPath[1]!);
      if (!store.get(id)) throw notFound();
      if (!sheetPath[2] && req.method === "GET") return send(res, 200, store.get(id));
      if (sheetPath[2] === "/copy" && req.method === "POST")
        return send(res, 201, { spreadsheetId: store.copy(id).spreadsheetId });
      // An edit made "in the Sheets UI": typed values, parsed like USER_ENTERED.
      if (sheetPath[2] === "/values" && req.method === "POST") {
        const params = new URLSearchParams({ valueInputOption: "USER_ENTERED" });
        return send(
          res,
          200,
          store.mutate(id, (s) => updateValues(s, String(body.range), body, params)),
        );
      }
      if (sheetPath[2] === "/tabs" && req.method === "POST") {
        // A tab added in the UI, with its rows (values stored as given, like RAW).
        const seed = body as unknown as TabSeed;
        return send(
          res,
          201,
          store.mutate(id, (s) => {
            const tab = buildSpreadsheet({ title: "", tabs: [seed] }).tabs[0]!;
            tab.sheetId = s.nextSheetId++;
            s.tabs.push(tab);
            touch(s);
            return { sheetId: tab.sheetId, title: tab.title };
          }),
        );
      }
      if (sheetPath[2] === "/access" && req.method === "PATCH") {
        return send(
          res,
          200,
          store.mutate(id, (s) => {
            if (body.linkAccess) s.linkAccess = body.linkAccess as Role | "none";
            if (body.members) s.members = { ...s.members, ...(body.members as Record<string, Role | "none">) };
            return { linkAccess: s.linkAccess, members: s.members };
          }),
        );
      }
    }
    send(res, 404, { error: { code: 404, message: `No admin route ${req.method} ${path}`, status: "NOT_FOUND" } });
  }

  const oauthPaths = new Set(Object.values(OAUTH_PATHS));
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
    try {
      if (oauthPaths.has(url.pathname)) {
        const name = `oauth.${Object.entries(OAUTH_PATHS).find(([, p]) => p === url.pathname)![0]}`;
        calls.set(name, (calls.get(name) ?? 0) + 1);
        return await oauth.handle(req, res, url);
      }
      const { json } = await readBody(req);
      const call = { req, url, body: json };
      log(`${req.method} ${url.pathname}`);
      if (url.pathname.startsWith("/__admin")) return await handleAdmin(call, res);
      if (await handlePicker(req, res, url, json, { store, apiKeys, tokens: oauth.tokens })) return;
      if (url.pathname === "/$discovery/rest") {
        return send(res, 200, {
          kind: "discovery#restDescription",
          name: "sheets",
          version: "v4",
          rootUrl: `http://${req.headers.host}/`,
        });
      }
      if (await handleApi(call, res)) return;
      throw new GoogleError(404, "NOT_FOUND", `Method not found: ${req.method} ${url.pathname}`);
    } catch (err) {
      if (err instanceof GoogleError)
        return send(res, err.code, err.body(url.pathname.startsWith("/drive/") ? "drive" : "sheets"));
      log(`emulator error: ${(err as Error).stack}`);
      send(res, 500, new GoogleError(500, "INTERNAL", "Internal error encountered.").body());
    }
  });

  // Idle connections stay open a minute, as Google's front ends keep them: a client that reuses
  // one after a long pause (a test's synchronous setup) does not race the server closing it.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve);
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${options.host ?? "127.0.0.1"}:${port}`;
  oauth.issuer.url = url;

  return {
    url,
    port,
    store,
    faults,
    calls,
    setModifiedTimeLag: (ms) => {
      modifiedTimeLag = ms;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
