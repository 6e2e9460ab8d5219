// The tab model, derived once from a tab's header row and a sample of its cells: column names
// (DECISIONS 1), column types (DECISIONS 11) and whether rows carry their own `id`. Validation,
// /schema, the docs page and OpenAPI all read it.

export const COLUMN_TYPES = ["string", "number", "boolean", "date", "datetime", "currency", "percent"] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export interface ColumnModel {
  name: string;
  /** 0-based column index in the sheet. */
  index: number;
  type: ColumnType;
  /** The number format pattern its sampled cells show in ("dd.MM.yyyy"), for reading dates back. */
  pattern?: string;
}

export interface TabModel {
  name: string;
  /** The tab's numeric id in the spreadsheet (`gid`), for row deletes. */
  gid: number;
  columns: ColumnModel[];
  /** True when a column is named exactly `id`: its values are the row ids (DECISIONS 2). */
  hasIdColumn: boolean;
  /** The spreadsheet's `properties.locale` and `timeZone`: how its cells display numbers and dates. */
  locale?: string;
  timeZone?: string;
}

export interface SheetModel {
  sheetId: string;
  title: string;
  tabs: TabModel[];
  /** When the model was read from Google, Unix ms. */
  updatedAt: number;
}

/** The subset of the Sheets API's CellData the model reads. */
export interface SampleCell {
  formattedValue?: string | null;
  effectiveValue?: {
    numberValue?: number | null;
    stringValue?: string | null;
    boolValue?: boolean | null;
    errorValue?: unknown;
  } | null;
  effectiveFormat?: { numberFormat?: { type?: string | null; pattern?: string | null } | null } | null;
}

/**
 * Blank headers are not columns; a repeated name gets a suffix: `email`, `email_2`. The suffix
 * is never a name the header row itself holds, so a real `email_2` column keeps its name.
 */
export function columnNames(header: string[]): { name: string; index: number }[] {
  const names = header.map((raw) => String(raw ?? "").trim());
  const real = new Set(names);
  const used = new Set<string>();
  const out: { name: string; index: number }[] = [];
  names.forEach((base, index) => {
    if (!base) return;
    let name = base;
    for (let n = 2; used.has(name) || (name !== base && real.has(name)); n++) name = `${base}_${n}`;
    used.add(name);
    out.push({ name, index });
  });
  return out;
}

function cellType(cell: SampleCell | undefined): ColumnType | undefined {
  const value = cell?.effectiveValue;
  if (!value || value.errorValue) return undefined;
  if (typeof value.boolValue === "boolean") return "boolean";
  if (typeof value.numberValue === "number") {
    switch (cell?.effectiveFormat?.numberFormat?.type) {
      case "DATE":
        return "date";
      case "DATE_TIME":
        return "datetime";
      case "CURRENCY":
        return "currency";
      case "PERCENT":
        return "percent";
      case "TIME":
      case "TEXT":
        return "string";
      default:
        return "number";
    }
  }
  if (typeof value.stringValue === "string") return value.stringValue === "" ? undefined : "string";
  return undefined;
}

const NUMERIC: ReadonlySet<ColumnType> = new Set(["number", "currency", "percent"]);

/** One type for a column: what every non-empty sampled cell agrees on, else the closest common one. */
export function columnType(cells: (SampleCell | undefined)[]): ColumnType {
  const seen = new Set(cells.map(cellType).filter((t): t is ColumnType => t !== undefined));
  if (seen.size === 0) return "string";
  if (seen.size === 1) return [...seen][0]!;
  if ([...seen].every((t) => NUMERIC.has(t))) return "number";
  if ([...seen].every((t) => t === "date" || t === "datetime")) return "datetime";
  return "string";
}

/** The pattern most of the column's cells of its own type show in, for date and date-time columns. */
function columnPattern(cells: (SampleCell | undefined)[], type: ColumnType): string | undefined {
  if (type !== "date" && type !== "datetime") return undefined;
  const counts = new Map<string, number>();
  for (const cell of cells) {
    const pattern = cell?.effectiveFormat?.numberFormat?.pattern;
    if (pattern && (cellType(cell) === "date" || cellType(cell) === "datetime"))
      counts.set(pattern, (counts.get(pattern) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** Builds a tab's model from its grid: row 0 is the header, the rest a sample of data rows. */
export function buildTabModel(
  name: string,
  grid: SampleCell[][],
  gid = 0,
  where?: { locale: string; timeZone: string },
): TabModel {
  const header = (grid[0] ?? []).map((c) => c?.formattedValue ?? "");
  const rows = grid.slice(1);
  const columns = columnNames(header).map(({ name: column, index }) => {
    const cells = rows.map((r) => r[index]);
    const type = columnType(cells);
    const pattern = columnPattern(cells, type);
    return { name: column, index, type, ...(pattern ? { pattern } : {}) };
  });
  return { name, gid, columns, hasIdColumn: columns.some((c) => c.name === "id"), ...where };
}

/** The schema operation's `data`. */
export function schemaDocument(model: SheetModel) {
  return {
    sheet_id: model.sheetId,
    sheet_name: model.title,
    tabs: model.tabs.map((t) => ({ name: t.name, columns: t.columns.map(({ name, type }) => ({ name, type })) })),
  };
}
