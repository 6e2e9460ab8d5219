// The Google Picker stand-in, server half: the loader, the frame listing the person's spreadsheets,
// the pick that grants drive.file access to one file, and a stand-in for "Blank spreadsheet"
// (emulators/google/README.md).
import type { IncomingMessage, ServerResponse } from "node:http";
import { grantFile } from "./drive-file";
import { GoogleError } from "./errors";
import { identify, roleOf, type Caller } from "./identity";
import type { Spreadsheet } from "./model";
import { PICKER_SCRIPT } from "./picker-script";
import type { SpreadsheetStore } from "./store";
import type { AccessTokens } from "./tokens";

export const PICKER_PATHS = { script: "/js/api.js", frame: "/picker", pick: "/picker/pick", sample: "/picker/sample" };

/** What "Create a sample spreadsheet" makes: a header row and a few rows, as a person would type them. */
const SAMPLE_TAB = {
  title: "Contacts",
  rows: [
    ["id", "name", "email", "status"],
    [1, "Ada Lovelace", "ada@example.com", "active"],
    [2, "Grace Hopper", "grace@example.com", "active"],
    [3, "Alan Turing", "alan@example.com", "invited"],
  ],
};

const SPREADSHEET_MIME = "application/vnd.google-apps.spreadsheet";
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface PickerDeps {
  store: SpreadsheetStore;
  apiKeys: ReadonlySet<string>;
  /** The access tokens Google issued: the picker's OAuth token must be one of them. */
  tokens: AccessTokens;
}

function callerFor(token: string, deps: PickerDeps): Caller & { kind: "account" } {
  const req = { headers: { authorization: `Bearer ${token}` } } as IncomingMessage;
  const caller = identify(req, new URL("http://picker/"), deps.apiKeys, deps.tokens);
  if (caller.kind !== "account") throw new GoogleError(401, "UNAUTHENTICATED", "The picker needs an OAuth token.");
  return caller;
}

/** The person's own spreadsheets (shared with them by name), plus those setFileIds named that they can open. */
function filesFor(caller: Caller & { kind: "account" }, store: SpreadsheetStore, fileIds: string[]): Spreadsheet[] {
  return store
    .list()
    .filter((s) => {
      const member = s.members[caller.email];
      if (member === "none" || roleOf(s, caller) === "none") return false;
      return Boolean(member) || fileIds.includes(s.spreadsheetId);
    })
    .filter((s) => fileIds.length === 0 || fileIds.includes(s.spreadsheetId))
    .sort((a, b) => b.modifiedTime.localeCompare(a.modifiedTime));
}

function documentOf(s: Spreadsheet) {
  return {
    id: s.spreadsheetId,
    name: s.title,
    mimeType: SPREADSHEET_MIME,
    url: `https://docs.google.com/spreadsheets/d/${s.spreadsheetId}/edit?usp=drive_web`,
    serviceId: "spread",
    type: "document",
    lastEditedUtc: Date.parse(s.modifiedTime),
  };
}

// Only in the Drive listing (not when the app asked for given files): Google Sheets is where a
// person would make a spreadsheet, and there is no Google Sheets here.
const sampleOffer = `<div class="sample"><p>This is a local stand-in for Google Drive: there is no Google Sheets to make a spreadsheet in.</p>
<button type="button" id="create-sample">Create a sample spreadsheet</button></div>`;

function framePage(url: URL, deps: PickerDeps): string {
  const p = url.searchParams;
  const origin = p.get("origin") ?? "";
  let body: string;
  if (!deps.apiKeys.has(p.get("developerKey") ?? "")) {
    body = `<p class="err">The API developer key is invalid.</p>`;
  } else {
    let caller: Caller & { kind: "account" };
    try {
      caller = callerFor(p.get("oauth_token") ?? "", deps);
    } catch {
      caller = undefined as never;
    }
    if (!caller) {
      body = `<p class="err">Sign in again: the access token is missing or expired.</p>`;
    } else {
      const ids = (p.get("fileIds") ?? "").split(",").filter(Boolean);
      const files = filesFor(caller, deps.store, ids);
      body =
        `<p class="who">${esc(caller.email)}</p>` +
        (files.length
          ? `<ul>${files.map((f) => `<li><button type="button" data-file-id="${esc(f.spreadsheetId)}">${esc(f.title)}<small>Spreadsheet · ${esc(f.members[caller.email] ?? "anyone with the link")}</small></button></li>`).join("")}</ul>`
          : `<p class="empty">No spreadsheets to show.</p>` + (ids.length ? "" : sampleOffer));
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Select a file - Google Picker (emulator)</title>
<style>body{font-family:system-ui,sans-serif;margin:0;color:#202124}header{display:flex;justify-content:space-between;align-items:center;padding:12px 16px;border-bottom:1px solid #dadce0}
h1{font-size:1.1rem;margin:0}ul{list-style:none;margin:0;padding:8px}li button{display:block;width:100%;text-align:left;padding:12px;border:0;background:none;font-size:1rem;cursor:pointer;border-radius:6px}
li button:hover,li button:focus{background:#e8f0fe}small{display:block;color:#5f6368;font-size:.8rem}.who{padding:0 16px;color:#5f6368;font-size:.85rem}.err{padding:16px;color:#b3261e}
header button,.sample button{border:1px solid #dadce0;background:#fff;border-radius:4px;padding:6px 12px;cursor:pointer}.empty,.sample{padding:0 16px}
:focus-visible{outline:2px solid #1a73e8;outline-offset:2px}</style>
<script>
var origin = ${JSON.stringify(origin)};
var params = new URLSearchParams(location.search);
function send(data) { parent.postMessage(data, origin); }
// One listener on the document, in place before any button is: a click is never lost to a page
// still being parsed.
document.addEventListener("click", function (event) {
  var target = event.target instanceof Element ? event.target : null;
  if (!target) return;
  if (target.closest("#cancel")) return send({ action: "cancel" });
  if (target.closest("#create-sample")) {
    return fetch(${JSON.stringify(PICKER_PATHS.sample)}, { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ oauth_token: params.get("oauth_token") }) }).then(function () { location.reload(); });
  }
  var b = target.closest("[data-file-id]");
  if (!b) return;
  fetch(${JSON.stringify(PICKER_PATHS.pick)}, { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ oauth_token: params.get("oauth_token"), appId: params.get("appId"), fileId: b.getAttribute("data-file-id") }) })
    .then(function (r) { return r.json(); })
    .then(function (doc) { send(doc.id ? { action: "picked", docs: [doc] } : { action: "error" }); });
});
// The page hands focus back at either end (its Tab sentinels): the dialog keeps it.
window.addEventListener("message", function (event) {
  if (event.source !== parent || event.origin !== origin || !event.data || !event.data.focus) return;
  var all = document.querySelectorAll("button");
  var to = event.data.focus === "last" ? all[all.length - 1] : all[0];
  if (to) to.focus();
});
// Escape closes Google's picker as its Cancel button does.
document.addEventListener("keydown", function (event) { if (event.key === "Escape") send({ action: "cancel" }); });
document.addEventListener("DOMContentLoaded", function () {
  // Focus starts inside the dialog, on its first choice (or Cancel), as in Google's.
  var first = document.querySelector("[data-file-id]") || document.getElementById("create-sample") || document.getElementById("cancel");
  if (first) first.focus();
  send({ action: "loaded" });
});
</script></head>
<body><header><h1>${esc(p.get("title") || "Select a file")}</h1><button type="button" id="cancel">Cancel</button></header>${body}
</body></html>`;
}

/** Handles the picker's routes; false when the path is not one of them. */
export async function handlePicker(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  body: Record<string, unknown>,
  deps: PickerDeps,
): Promise<boolean> {
  if (url.pathname === PICKER_PATHS.script && req.method === "GET") {
    res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "access-control-allow-origin": "*" });
    res.end(PICKER_SCRIPT);
    return true;
  }
  if (url.pathname === PICKER_PATHS.frame && req.method === "GET") {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(framePage(url, deps));
    return true;
  }
  if (url.pathname === PICKER_PATHS.sample && req.method === "POST") {
    const caller = callerFor(String(body.oauth_token ?? ""), deps);
    const sheet = deps.store.add({
      title: "Sample contacts",
      linkAccess: "none",
      members: { [caller.email]: "owner" },
      tabs: [SAMPLE_TAB],
    });
    res.writeHead(201, { "content-type": "application/json; charset=UTF-8" });
    res.end(JSON.stringify({ id: sheet.spreadsheetId, name: sheet.title }));
    return true;
  }
  if (url.pathname === PICKER_PATHS.pick && req.method === "POST") {
    const caller = callerFor(String(body.oauth_token ?? ""), deps);
    const id = String(body.fileId ?? "");
    const sheet = deps.store.get(id);
    if (!sheet || roleOf(sheet, caller) === "none")
      throw new GoogleError(404, "NOT_FOUND", `File not found: ${id}.`, "notFound");
    // Without the app's project number (setAppId) the pick gives the app nothing.
    if (body.appId) deps.store.mutate(id, (s) => grantFile(s, caller.client, caller.email));
    const text = JSON.stringify(documentOf(sheet));
    res.writeHead(200, { "content-type": "application/json; charset=UTF-8" });
    res.end(text);
    return true;
  }
  return false;
}
