// How a tab's cells are held in memory: by column, each column's distinct values once and, per
// row, the number of its value (a cached 100,000-row tab holds a column of a thousand different
// values as a thousand strings and 100,000 small numbers, not as 100,000 cells in 100,000 arrays).
// Rows hand out their cells on demand. The indexes (tab-index.ts) work on these numbers directly.

export interface TabRow {
  /** 1-based row number in the sheet (the header is row 1). */
  rowNumber: number;
  id: string;
  /** One displayed value per column, in column order. */
  cells: string[];
  /** Date and date-time cells' serial numbers, by column position, once read (date-values.ts). */
  serials?: (number | undefined)[];
}

export interface StoredColumn {
  /** Each value the column holds, once. */
  distinct: string[];
  /** Per row (in the tab's row order), the position of its value in `distinct`. */
  ids: Uint16Array | Uint32Array;
}

/** A row of a stored tab. Spread copies (`{ ...row, cells }`) keep its number and id. */
export class StoredRow implements TabRow {
  readonly rowNumber: number;
  readonly id: string;
  // Only rows that have serials carry the field (no slot in every row of a tab without dates).
  declare readonly serials?: (number | undefined)[];
  readonly #columns: StoredColumn[];
  readonly #at: number;

  constructor(rowNumber: number, id: string, columns: StoredColumn[], at: number, serials?: (number | undefined)[]) {
    this.rowNumber = rowNumber;
    this.id = id;
    if (serials) this.serials = serials;
    this.#columns = columns;
    this.#at = at;
  }

  /** One displayed value per column, in column order (a new array each time). */
  get cells(): string[] {
    const cells = new Array<string>(this.#columns.length);
    for (let c = 0; c < cells.length; c++) {
      const column = this.#columns[c]!;
      cells[c] = column.distinct[column.ids[this.#at]!]!;
    }
    return cells;
  }
}

// The columns of each stored tab, by its rows array (a TabData made over the same rows shares them).
const stores = new WeakMap<readonly TabRow[], StoredColumn[]>();

/** The stored columns behind `rows`, when they were built by storeRows. */
export const storedColumns = (rows: readonly TabRow[]): StoredColumn[] | undefined => stores.get(rows);

/**
 * Rows from a tab's values: `kept` are the positions in `values` of the rows to keep, `cellAt`
 * where each column's cells are in a row. A row's id is its cell of column `idColumn`, or its row
 * number when that is -1.
 */
export function storeRows(
  values: readonly (readonly unknown[] | undefined)[],
  kept: number[],
  cellAt: number[],
  idColumn: number,
): TabRow[] {
  const columns = internColumns(values, kept, cellAt);
  const ids = columns[idColumn];
  const rows: TabRow[] = new Array(kept.length);
  for (let k = 0; k < kept.length; k++) {
    rows[k] = new StoredRow(kept[k]! + 1, ids ? ids.distinct[ids.ids[k]!]! : String(kept[k]! + 1), columns, k);
  }
  stores.set(rows, columns);
  return rows;
}

/**
 * Rows like `rows`, over the same stored values: only the columns at positions `keep` (all when
 * undefined), each with the serials `serials` gives it (else its own, of the kept columns).
 */
export function reshapeRows(
  rows: readonly TabRow[],
  { keep, serials }: { keep?: number[]; serials?: (row: TabRow) => (number | undefined)[] | undefined },
): TabRow[] {
  const stored = storedColumns(rows);
  const columns = stored && keep ? keep.map((i) => stored[i]!) : stored;
  const out = rows.map((row, k): TabRow => {
    const own = keep && row.serials ? keep.map((i) => row.serials![i]) : row.serials;
    const rowSerials = serials ? serials(row) : own;
    if (columns) return new StoredRow(row.rowNumber, row.id, columns, k, rowSerials);
    if (!keep && rowSerials === row.serials) return row;
    const cells = row.cells;
    return {
      rowNumber: row.rowNumber,
      id: row.id,
      cells: keep ? keep.map((i) => cells[i]!) : cells,
      ...(rowSerials ? { serials: rowSerials } : {}),
    };
  });
  if (columns) stores.set(out, columns);
  return out;
}

/** Columns of rows made another way (by hand, in tests): the same form, built from their cells. */
export function columnsOfRows(rows: readonly TabRow[], width: number): StoredColumn[] {
  const cells = rows.map((r) => r.cells);
  return internColumns(
    cells,
    cells.map((_, k) => k),
    Array.from({ length: width }, (_, c) => c),
  );
}

function internColumns(
  values: readonly (readonly unknown[] | undefined)[],
  kept: number[],
  cellAt: number[],
): StoredColumn[] {
  const seen = cellAt.map(() => new Map<string, number>());
  const distinct = cellAt.map((): string[] => []);
  const ids = cellAt.map(() => new Uint32Array(kept.length));
  // Row by row: each row's cells are read while they are at hand.
  for (let k = 0; k < kept.length; k++) {
    const row = values[kept[k]!];
    for (let c = 0; c < cellAt.length; c++) {
      const text = String(row?.[cellAt[c]!] ?? "");
      let id = seen[c]!.get(text);
      if (id === undefined) {
        id = distinct[c]!.length;
        distinct[c]!.push(text);
        seen[c]!.set(text, id);
      }
      ids[c]![k] = id;
    }
  }
  return cellAt.map((_, c) => ({
    distinct: distinct[c]!,
    ids: distinct[c]!.length <= 0x10000 ? new Uint16Array(ids[c]!) : ids[c]!,
  }));
}
