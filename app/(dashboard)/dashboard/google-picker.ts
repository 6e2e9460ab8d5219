// Opens the Google Picker in the owner's browser: Google's own script in production
// (https://apis.google.com/js/api.js), the emulator's stand-in with the same API otherwise.
// Picking a file is what gives SheetAPI drive.file access to it, which proves access.

interface PickerDoc {
  [field: string]: unknown;
}
interface PickerData {
  [field: string]: unknown;
}
interface PickerNamespace {
  PickerBuilder: new () => PickerBuilder;
  DocsView: new (viewId?: string) => DocsView;
  ViewId: { SPREADSHEETS: string };
  Action: { PICKED: string; CANCEL: string };
  Response: { ACTION: string; DOCUMENTS: string };
  Document: { ID: string; NAME: string };
}
interface DocsView {
  setFileIds(ids: string): DocsView;
  setMimeTypes(types: string): DocsView;
}
interface PickerBuilder {
  addView(view: DocsView): PickerBuilder;
  setOAuthToken(token: string): PickerBuilder;
  setDeveloperKey(key: string): PickerBuilder;
  setAppId(appId: string): PickerBuilder;
  setOrigin(origin: string): PickerBuilder;
  setTitle(title: string): PickerBuilder;
  setCallback(cb: (data: PickerData) => void): PickerBuilder;
  build(): { setVisible(visible: boolean): void };
}
declare global {
  interface Window {
    gapi?: { load(name: string, options: { callback: () => void; onerror?: () => void }): void };
    google?: { picker?: PickerNamespace };
  }
}

export interface PickerSession {
  token: string;
  scriptUrl: string;
  developerKey: string;
  appId: string;
}

export type PickerOutcome = { picked: { id: string; name: string } } | { cancelled: true };

const loaded = new Map<string, Promise<void>>();

function loadScript(src: string): Promise<void> {
  let p = loaded.get(src);
  if (!p) {
    p = new Promise<void>((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        loaded.delete(src);
        reject(new Error("Google's file picker could not be loaded. Check your connection and try again."));
      };
      document.head.appendChild(script);
    });
    loaded.set(src, p);
  }
  return p;
}

async function pickerApi(scriptUrl: string): Promise<PickerNamespace> {
  await loadScript(scriptUrl);
  if (!window.google?.picker) {
    await new Promise<void>((resolve, reject) =>
      window.gapi!.load("picker", {
        callback: resolve,
        onerror: () => reject(new Error("Google's file picker could not be loaded.")),
      }),
    );
  }
  return window.google!.picker!;
}

/** Shows the Picker on spreadsheets (only `fileId` when given) and resolves with the choice. */
export async function pickSpreadsheet(session: PickerSession, fileId?: string): Promise<PickerOutcome> {
  const picker = await pickerApi(session.scriptUrl);
  const view = new picker.DocsView(picker.ViewId.SPREADSHEETS);
  if (fileId) view.setFileIds(fileId);
  return new Promise<PickerOutcome>((resolve) => {
    new picker.PickerBuilder()
      .addView(view)
      .setOAuthToken(session.token)
      .setDeveloperKey(session.developerKey)
      .setAppId(session.appId)
      .setOrigin(window.location.origin)
      .setTitle("Choose a spreadsheet for SheetAPI")
      .setCallback((data) => {
        const action = data[picker.Response.ACTION];
        if (action === picker.Action.CANCEL) resolve({ cancelled: true });
        if (action !== picker.Action.PICKED) return;
        const doc = (data[picker.Response.DOCUMENTS] as PickerDoc[])[0]!;
        resolve({ picked: { id: String(doc[picker.Document.ID]), name: String(doc[picker.Document.NAME] ?? "") } });
      })
      .build()
      .setVisible(true);
  });
}
