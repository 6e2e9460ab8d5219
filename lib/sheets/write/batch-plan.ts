// The coalesced batch path's shapes: the batch a tab's turn plans, what each request's part of
// it holds, and how a kind of write (create, update, delete) shares one.
import type { sheets_v4 } from "@googleapis/sheets";
import type { ApiError } from "@/lib/errors";
import type { ApiWrite } from "@/lib/webhooks/changes";
import type { TabData } from "@/lib/sheets/values/rows";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import type { TabModel } from "@/lib/sheets/values/tab-model";
import type { SheetsRequest } from "./write-guard";

export type BatchSheet = Pick<SheetRecord, "id" | "access" | "refreshTokenCiphertext" | "cacheTtlSeconds"> &
  Partial<Pick<SheetRecord, "userEnteredWrites" | "v">>;
type RowData = sheets_v4.Schema$RowData;

/** The batch being planned: the tab as read, and what its parts so far write. */
export interface BatchPlan {
  readonly data: TabData;
  /** 0-based index of the row the next created rows go to (the batch's creates follow each other). */
  nextRow: number;
  /** Ids the batch's creates write. */
  readonly ids: Set<string>;
  /** Row numbers the batch's updates or deletes touch. */
  readonly rows: Set<number>;
  /** Rows of those an update with an If-Match touches: no other part may change them in the same batch. */
  readonly guarded: Set<number>;
}

/** What the batch wrote, for each part's answer. */
export interface Written {
  /** The whole tab after the batch, as the sheet shows it (row 1 first); undefined for a write found to have landed after a timeout. */
  grid: RowData[] | undefined;
  /** The same, as a read gives it. */
  after: TabData | undefined;
  /** How far the batch's created rows moved before it landed (its marker says, after a timeout). */
  shift: number;
}

export interface Part<T> {
  requests: SheetsRequest[];
  /** The part's answer once the batch is confirmed (it may still fail on its own), and what it changed, for webhooks. */
  answer(written: Written): Promise<{ result: T; events?: ApiWrite }> | { result: T; events?: ApiWrite };
  /** The part's error when the batch's outcome stays unknown. */
  unknown(writeId: number): ApiError;
}

/** The part depends on one already in the batch: planned again in the next batch. */
export const WAIT: unique symbol = Symbol("wait");
export type Planned<T> = Part<T> | typeof WAIT | { done: T };

export interface WriteJob<T> {
  /** Plans the request's part against the batch; what it throws is this request's failure alone. */
  plan(batch: BatchPlan): Promise<Planned<T>>;
  /** The tab could not be read before the write: the request's error (thrown). */
  readFailed?(err: unknown): never;
}

export interface BatchKind {
  name: "create" | "update" | "delete";
  /** At most this many requests in one batch. */
  max: number;
  /** Where the batch's marker sits (write-guard.ts): the created rows (it moves with them), or the tab. */
  marker(batch: BatchPlan, gid: number): sheets_v4.Schema$DeveloperMetadataLocation;
  /** Google refused the batch as built: the requests to send it again with, first; undefined: the refusal stands. */
  onRefused?(err: unknown, gid: number): SheetsRequest[] | undefined;
}

export interface Waiting {
  job: WriteJob<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

export interface Queue {
  sheet: BatchSheet;
  model: TabModel;
  kind: BatchKind;
  waiting: Waiting[];
}
