// The browser half of the Picker stand-in, served as /js/api.js with the same JavaScript shape as
// Google's gapi picker, so the product's page runs unchanged against either. The picker is a modal
// frame on the emulator's origin, as Google's is (emulators/google/README.md).
export const PICKER_SCRIPT = String.raw`(function () {
  var script = document.currentScript;
  var ORIGIN = new URL(script ? script.src : location.href).origin;
  function chain(target, names) {
    names.forEach(function (n) { target.prototype[n] = function () { return this; }; });
  }
  function DocsView(viewId) { this.viewId = viewId || "all"; this.fileIds = ""; this.mimeTypes = ""; }
  DocsView.prototype.setFileIds = function (ids) { this.fileIds = String(ids || ""); return this; };
  DocsView.prototype.setMimeTypes = function (t) { this.mimeTypes = String(t || ""); return this; };
  chain(DocsView, ["setIncludeFolders", "setSelectFolderEnabled", "setMode", "setOwnedByMe", "setQuery", "setStarred", "setParent", "setEnableDrives"]);
  function Picker(b) { this.b = b; this.frame = null; this.onMessage = null; this.onKey = null; this.inerted = []; this.opener = null; }
  Picker.prototype.setVisible = function (visible) {
    if (!visible) return this.dispose();
    if (this.frame) return;
    var b = this.b, self = this;
    var view = b.views[0] || new DocsView("all");
    var q = new URLSearchParams({ oauth_token: b.token || "", developerKey: b.key || "", appId: b.appId || "", view: view.viewId,
      fileIds: view.fileIds, mimeTypes: view.mimeTypes, origin: b.origin || location.origin, title: b.title || "" });
    var overlay = document.createElement("div");
    overlay.setAttribute("data-picker-overlay", "");
    overlay.style.cssText = "position:fixed;inset:0;z-index:2147483000;background:rgba(32,33,36,.6);display:flex;align-items:center;justify-content:center";
    var frame = document.createElement("iframe");
    frame.title = "Google Picker";
    frame.src = ORIGIN + "/picker?" + q.toString();
    frame.style.cssText = "border:0;background:#fff;width:min(100vw,640px);height:min(100vh,520px);border-radius:8px";
    overlay.setAttribute("role", "dialog");
    overlay.setAttribute("aria-modal", "true");
    overlay.setAttribute("aria-label", frame.title);
    // Tab past either end of the picker lands on a sentinel that hands focus back inside: to its
    // first control going forward, its last going back (the frame is another origin: asked by message).
    function sentinel(to) {
      var s = document.createElement("span");
      s.tabIndex = 0;
      s.setAttribute("data-picker-sentinel", to);
      s.addEventListener("focus", function () {
        frame.focus();
        frame.contentWindow.postMessage({ focus: to }, ORIGIN);
      });
      return s;
    }
    overlay.appendChild(sentinel("last"));
    overlay.appendChild(frame);
    overlay.appendChild(sentinel("first"));
    this.opener = document.activeElement;
    // Everything else on the page is out of reach while the picker is open.
    this.inerted = Array.prototype.filter.call(document.body.children, function (el) { return !el.inert; });
    this.inerted.forEach(function (el) { el.inert = true; });
    document.body.appendChild(overlay);
    this.frame = overlay;
    frame.focus();
    this.onKey = function (e) {
      if (e.key !== "Escape") return;
      self.dispose();
      if (b.callback) b.callback({ action: "cancel" });
    };
    document.addEventListener("keydown", this.onKey);
    this.onMessage = function (e) {
      if (e.origin !== ORIGIN || e.source !== frame.contentWindow || !e.data || !e.data.action) return;
      if (e.data.action !== "loaded") self.dispose();
      if (b.callback) b.callback(e.data);
    };
    window.addEventListener("message", this.onMessage);
  };
  Picker.prototype.isVisible = function () { return Boolean(this.frame); };
  Picker.prototype.dispose = function () {
    if (this.onMessage) window.removeEventListener("message", this.onMessage);
    if (this.onKey) document.removeEventListener("keydown", this.onKey);
    this.onMessage = this.onKey = null;
    if (!this.frame) return;
    this.frame.remove();
    this.frame = null;
    this.inerted.forEach(function (el) { el.inert = false; });
    this.inerted = [];
    if (this.opener && this.opener.isConnected && this.opener.focus) this.opener.focus();
    this.opener = null;
  };
  function PickerBuilder() { this.views = []; }
  PickerBuilder.prototype.addView = function (v) { this.views.push(typeof v === "string" ? new DocsView(v) : v); return this; };
  PickerBuilder.prototype.setOAuthToken = function (t) { this.token = t; return this; };
  PickerBuilder.prototype.setDeveloperKey = function (k) { this.key = k; return this; };
  PickerBuilder.prototype.setAppId = function (id) { this.appId = id; return this; };
  PickerBuilder.prototype.setCallback = function (cb) { this.callback = cb; return this; };
  PickerBuilder.prototype.setOrigin = function (o) { this.origin = o; return this; };
  PickerBuilder.prototype.setTitle = function (t) { this.title = t; return this; };
  chain(PickerBuilder, ["enableFeature", "disableFeature", "setLocale", "setSize", "setSelectableMimeTypes", "hideTitleBar", "setMaxItems"]);
  PickerBuilder.prototype.build = function () { return new Picker(this); };
  var picker = {
    PickerBuilder: PickerBuilder, DocsView: DocsView, View: DocsView,
    ViewId: { DOCS: "all", SPREADSHEETS: "spreadsheets", DOCUMENTS: "documents", FOLDERS: "folders" },
    Action: { PICKED: "picked", CANCEL: "cancel", LOADED: "loaded", ERROR: "error" },
    Response: { ACTION: "action", DOCUMENTS: "docs", PARENTS: "parents", VIEW: "viewToken" },
    Document: { ID: "id", NAME: "name", URL: "url", MIME_TYPE: "mimeType", LAST_EDITED_UTC: "lastEditedUtc", SERVICE_ID: "serviceId", TYPE: "type", DESCRIPTION: "description", ICON_URL: "iconUrl", EMBEDDABLE_URL: "embedUrl" },
    Feature: { MULTISELECT_ENABLED: "multiselectEnabled", NAV_HIDDEN: "navHidden", SUPPORT_DRIVES: "sdr" },
    DocsViewMode: { GRID: "grid", LIST: "list" },
  };
  window.google = window.google || {};
  window.gapi = window.gapi || {};
  window.gapi.load = function (name, done) {
    var cb = typeof done === "function" ? done : done && done.callback;
    setTimeout(function () {
      if (name.split(":").indexOf("picker") >= 0) window.google.picker = picker;
      if (cb) cb();
    }, 0);
  };
})();`;
