// The `fields` system parameter (partial responses) on spreadsheets.get: only the selected fields
// come back, and a path that names no field of the Spreadsheet resource is 400, as Google answers
// ("Error expanding 'fields' parameter. Cannot find matching fields for path '...'."). Google does
// not trim: "properties, sheets" names the path " sheets".
import { badRequest, GoogleError } from "./errors";

/** A resource's fields; `ANY` accepts every sub-path (parts the emulator never fills in). */
type Shape = { [field: string]: Shape | typeof ANY | typeof LEAF };
const ANY = "any" as const;
const LEAF = "leaf" as const;

const EXTENDED_VALUE: Shape = {
  numberValue: LEAF,
  stringValue: LEAF,
  boolValue: LEAF,
  formulaValue: LEAF,
  errorValue: { type: LEAF, message: LEAF },
};
const CELL_FORMAT: Shape = {
  numberFormat: { type: LEAF, pattern: LEAF },
  backgroundColor: ANY,
  backgroundColorStyle: ANY,
  borders: ANY,
  padding: ANY,
  horizontalAlignment: LEAF,
  verticalAlignment: LEAF,
  wrapStrategy: LEAF,
  textDirection: LEAF,
  textFormat: ANY,
  hyperlinkDisplayType: LEAF,
  textRotation: ANY,
};
const CELL_DATA: Shape = {
  userEnteredValue: EXTENDED_VALUE,
  effectiveValue: EXTENDED_VALUE,
  formattedValue: LEAF,
  userEnteredFormat: CELL_FORMAT,
  effectiveFormat: CELL_FORMAT,
  hyperlink: LEAF,
  note: LEAF,
  textFormatRuns: ANY,
  dataValidation: ANY,
  pivotTable: ANY,
  dataSourceTable: ANY,
  dataSourceFormula: ANY,
  chipRuns: ANY,
};
const SPREADSHEET: Shape = {
  spreadsheetId: LEAF,
  properties: {
    title: LEAF,
    locale: LEAF,
    autoRecalc: LEAF,
    timeZone: LEAF,
    defaultFormat: CELL_FORMAT,
    iterativeCalculationSettings: ANY,
    spreadsheetTheme: ANY,
    importFunctionsExternalUrlAccessAllowed: LEAF,
  },
  sheets: {
    properties: {
      sheetId: LEAF,
      title: LEAF,
      index: LEAF,
      sheetType: LEAF,
      hidden: LEAF,
      tabColor: ANY,
      tabColorStyle: ANY,
      rightToLeft: LEAF,
      dataSourceSheetProperties: ANY,
      gridProperties: {
        rowCount: LEAF,
        columnCount: LEAF,
        frozenRowCount: LEAF,
        frozenColumnCount: LEAF,
        hideGridlines: LEAF,
        rowGroupControlAfter: LEAF,
        columnGroupControlAfter: LEAF,
      },
    },
    data: { startRow: LEAF, startColumn: LEAF, rowData: { values: CELL_DATA }, rowMetadata: ANY, columnMetadata: ANY },
    merges: ANY,
    conditionalFormats: ANY,
    filterViews: ANY,
    protectedRanges: ANY,
    basicFilter: ANY,
    charts: ANY,
    bandedRanges: ANY,
    developerMetadata: ANY,
    rowGroups: ANY,
    columnGroups: ANY,
    slicers: ANY,
    tables: ANY,
  },
  namedRanges: ANY,
  spreadsheetUrl: LEAF,
  developerMetadata: ANY,
  dataSources: ANY,
  dataSourceSchedules: ANY,
};

/** Drive v3's File resource, as far as a spreadsheet's file fills it in. */
const DRIVE_FILE: Shape = {
  kind: LEAF,
  id: LEAF,
  name: LEAF,
  mimeType: LEAF,
  description: LEAF,
  starred: LEAF,
  trashed: LEAF,
  explicitlyTrashed: LEAF,
  parents: LEAF,
  properties: ANY,
  appProperties: ANY,
  spaces: LEAF,
  version: LEAF,
  webViewLink: LEAF,
  iconLink: LEAF,
  hasThumbnail: LEAF,
  thumbnailLink: LEAF,
  thumbnailVersion: LEAF,
  viewedByMe: LEAF,
  viewedByMeTime: LEAF,
  createdTime: LEAF,
  modifiedTime: LEAF,
  modifiedByMeTime: LEAF,
  modifiedByMe: LEAF,
  sharedWithMeTime: LEAF,
  sharingUser: ANY,
  owners: ANY,
  driveId: LEAF,
  teamDriveId: LEAF,
  lastModifyingUser: ANY,
  shared: LEAF,
  ownedByMe: LEAF,
  capabilities: ANY,
  viewersCanCopyContent: LEAF,
  copyRequiresWriterPermission: LEAF,
  writersCanShare: LEAF,
  permissions: ANY,
  permissionIds: LEAF,
  quotaBytesUsed: LEAF,
  isAppAuthorized: LEAF,
  exportLinks: ANY,
  resourceKey: LEAF,
  linkShareMetadata: ANY,
  labelInfo: ANY,
};

/** The selection as a tree: true keeps a field whole. */
type Selection = Map<string, Selection | true>;

const invalid = (path: string) =>
  badRequest(`Error expanding 'fields' parameter. Cannot find matching fields for path '${path}'.`);

/** Splits on commas outside parentheses. */
function items(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of text) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      out.push(current);
      current = "";
    } else current += ch;
  }
  out.push(current);
  return out;
}

function parseInto(text: string, shape: Shape | typeof ANY, into: Selection, prefix: string): void {
  for (const item of items(text)) {
    const open = item.indexOf("(");
    const path = open >= 0 ? item.slice(0, open) : item;
    const sub = open >= 0 ? item.slice(open + 1, item.lastIndexOf(")")) : undefined;
    if (open >= 0 && !item.endsWith(")")) throw invalid(prefix + item);
    let node = into;
    let current: Shape | typeof ANY | typeof LEAF = shape;
    const names = path.split(/[./]/);
    for (const [i, name] of names.entries()) {
      const last = i === names.length - 1;
      if (name === "*" && last && sub === undefined) {
        for (const key of current === ANY || current === LEAF ? [] : Object.keys(current)) node.set(key, true);
        if (current === ANY) node.set("*", true);
        break;
      }
      if (current === LEAF || (current !== ANY && !Object.hasOwn(current, name))) throw invalid(prefix + path);
      current = current === ANY ? ANY : current[name]!;
      if (last && sub === undefined) {
        node.set(name, true);
        break;
      }
      let child = node.get(name);
      if (child === true) break; // already selected whole
      if (!child) node.set(name, (child = new Map()));
      node = child;
      if (last) {
        if (current === LEAF) throw invalid(prefix + item);
        parseInto(sub!, current, node, `${prefix}${path}/`);
      }
    }
  }
}

export function parseFields(fields: string): Selection {
  const selection: Selection = new Map();
  parseInto(fields, SPREADSHEET, selection, "");
  return selection;
}

/** Drive's `fields` on files.get; a path the File resource lacks is Drive's 400 "Invalid field selection". */
export function parseDriveFields(fields: string): Selection {
  const selection: Selection = new Map();
  try {
    parseInto(fields, DRIVE_FILE, selection, "");
  } catch (err) {
    const path = err instanceof GoogleError ? /for path '(.*)'\.$/.exec(err.message)?.[1] : undefined;
    if (path === undefined) throw err;
    const message = `Invalid field selection ${path}`;
    throw new GoogleError(400, "INVALID_ARGUMENT", message, undefined, {
      omitStatus: true,
      errors: [
        { message, domain: "global", reason: "invalidParameter", location: "fields", locationType: "parameter" },
      ],
    });
  }
  return selection;
}

/** Keeps only the selected fields; lists are filtered element by element. */
export function applyFields(value: unknown, selection: Selection): unknown {
  if (Array.isArray(value)) return value.map((v) => applyFields(v, selection));
  if (typeof value !== "object" || value === null) return value;
  if (selection.get("*") === true) return value;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of selection) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    out[key] = sub === true ? v : applyFields(v, sub);
  }
  return out;
}
