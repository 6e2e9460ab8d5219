// The shape of developer metadata (metadata.ts), apart from what is done with it: a spreadsheet
// (model.ts) holds entries of it, and metadata.ts works on spreadsheets.

export interface DimensionRange {
  sheetId: number;
  dimension: "ROWS" | "COLUMNS";
  startIndex: number;
  endIndex: number;
}

export interface MetadataLocation {
  locationType: "SPREADSHEET" | "SHEET" | "ROW" | "COLUMN";
  spreadsheet?: boolean;
  sheetId?: number;
  dimensionRange?: DimensionRange;
}

export interface DeveloperMetadata {
  metadataId: number;
  metadataKey: string;
  metadataValue?: string;
  location: MetadataLocation;
  visibility: "DOCUMENT" | "PROJECT";
}
