// The service's tables. SQL names are snake_case; TypeScript names are camelCase, except the
// next-auth columns, whose property names @auth/drizzle-adapter requires as they are.
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

// --- Accounts (next-auth) -------------------------------------------------------------------

/** A signed-in sheet owner is an account: plan and billing period live here. */
export const users = pgTable("users", {
  id: text("id")
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID()),
  name: text("name"),
  email: text("email").unique(),
  emailVerified: timestamp("email_verified", { withTimezone: true, mode: "date" }),
  image: text("image"),
  plan: text("plan").notNull().default("free_trial"),
  /** Start of the first billing period; each period repeats monthly from here (DECISIONS 14). */
  billingAnchor: timestamp("billing_anchor", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  /** The service account this account is asked to share its sheets with, chosen once (lib/google/identities.ts). */
  serviceAccount: text("service_account"),
  createdAt: createdAt(),
});

export const accounts = pgTable(
  "accounts",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    provider: text("provider").notNull(),
    providerAccountId: text("provider_account_id").notNull(),
    refresh_token: text("refresh_token"),
    access_token: text("access_token"),
    expires_at: integer("expires_at"),
    token_type: text("token_type"),
    scope: text("scope"),
    id_token: text("id_token"),
    session_state: text("session_state"),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerAccountId] }), index("accounts_user_idx").on(t.userId)],
);

export const sessions = pgTable("sessions", {
  sessionToken: text("session_token").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  expires: timestamp("expires", { withTimezone: true, mode: "date" }).notNull(),
});

export const verificationTokens = pgTable(
  "verification_tokens",
  {
    identifier: text("identifier").notNull(),
    token: text("token").notNull(),
    expires: timestamp("expires", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] })],
);

// --- Google grants -----------------------------------------------------------------------------

/**
 * An account's grant from one Google account (DECISIONS 19): one refresh token reused for every
 * sheet, since Google keeps at most 100 per Google account and client and silently revokes the
 * oldest. The token is AES-256-GCM under ENCRYPTION_KEY; `scope` is what the person granted.
 */
export const googleGrants = pgTable(
  "google_grants",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Google's stable account id (the ID token's `sub`). */
    googleSub: text("google_sub").notNull(),
    email: text("email").notNull(),
    refreshTokenCiphertext: text("refresh_token_ciphertext").notNull(),
    scope: text("scope").notNull(),
    needsReauth: boolean("needs_reauth").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("google_grants_user_sub_idx").on(t.userId, t.googleSub)],
);

// --- Sheets and keys ---------------------------------------------------------------------------

/** What the registering person proved with Google: "none" for registrations made before proof existed. */
export type SheetProof = "none" | "view" | "edit";

/** How the service reaches a sheet with Google: its API key, its service account, or the owner's grant. */
export type SheetAccess = "public" | "service_account" | "oauth";
/**
 * The registrant's proof as Google last confirmed it (DECISIONS 18): `current` (holds),
 * `read_only` (registered with edit proof, now only views: writes refused), `suspended` (cannot
 * open it any more, or no grant left to ask with: every key refused), `unproven` (registered
 * before proof existed, not proven since: served during ACCESS_PROOF_GRACE_MS, then suspended),
 * `service` (the service's own sheet, seeded in demo mode: no person to re-check).
 */
export type AccessState = "current" | "read_only" | "suspended" | "unproven" | "service";

export const sheets = pgTable(
  "sheets",
  {
    /** The Google spreadsheet id: the `sheetId` of every API path. One account per spreadsheet. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    access: text("access").$type<SheetAccess>().notNull(),
    writable: boolean("writable").notNull().default(false),
    /** What the owner proved with Google when registering: edit beats view (DECISIONS 18). */
    proof: text("proof").$type<SheetProof>().notNull().default("none"),
    /** The owner's grant, for sheets reached through it ("oauth"). */
    grantId: text("grant_id").references(() => googleGrants.id, { onDelete: "set null" }),
    /** The grant's refresh token, copied for the hot path (AES-256-GCM under ENCRYPTION_KEY). */
    refreshTokenCiphertext: text("refresh_token_ciphertext"),
    grantEmail: text("grant_email"),
    /** The service account ("service_account" access) the sheet is shared with, kept for good: its identity and quota. Null: the first configured. */
    serviceAccount: text("service_account"),
    needsReauth: boolean("needs_reauth").notNull().default(false),
    /** Whether the registrant's proof still holds in Google, as last checked (lib/sheets/access/access-check.ts). */
    accessState: text("access_state").$type<AccessState>().notNull().default("current"),
    /** When Google last confirmed (or denied) the registrant's access; re-checked after ACCESS_RECHECK_INTERVAL_MS. */
    accessCheckedAt: timestamp("access_checked_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** When Google refusing the sheet's grant last made the check due at once: at most once an interval. */
    accessForcedAt: timestamp("access_forced_at", { withTimezone: true, mode: "date" }),
    /** When a re-check first found this registration (made before proof existed) unproven: its grace counts from here. */
    accessUnprovenSince: timestamp("access_unproven_since", { withTimezone: true, mode: "date" }),
    cacheTtlSeconds: integer("cache_ttl_seconds").notNull().default(10),
    /** How old a copy may be served (marked STALE) while Google is rate limiting or down; 0 = never. */
    maxStaleSeconds: integer("max_stale_seconds").notNull().default(300),
    /** The owner's opt-in: written strings are parsed as if typed in the Sheets UI (USER_ENTERED); RAW otherwise. */
    userEnteredWrites: boolean("user_entered_writes").notNull().default(false),
    /** The public docs page may show the sheet's own first rows as examples (only while anyone with its link can view it). */
    docsExamples: boolean("docs_examples").notNull().default(true),
    /** Bumped on every change, so caches never let an older copy replace a newer one. */
    version: integer("version").notNull().default(1),
    /** The durable copy of the tab model (tabs, columns, types). */
    schema: jsonb("schema"),
    schemaUpdatedAt: timestamp("schema_updated_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [index("sheets_user_idx").on(t.userId)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    sheetId: text("sheet_id")
      .notNull()
      .references(() => sheets.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 of the key, hex. The key itself is never stored. */
    hash: text("hash").notNull().unique(),
    /** The first characters, to tell keys apart in the dashboard. */
    displayPrefix: text("display_prefix").notNull(),
    permissions: text("permissions")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** `secret` (server-side, `shk_`), `publishable` (browser, `shp_`) or `form` (`shf_`): fixed at creation. */
    kind: text("kind").notNull().default("secret"),
    /** Publishable keys: the exact origins (`https://app.example.com`) allowed to call. */
    allowedOrigins: text("allowed_origins")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Publishable keys: the tabs it may read; null reads every tab. */
    allowedTabs: text("allowed_tabs").array(),
    /** Publishable keys: the columns it may read (in every tab); null reads every column. */
    allowedColumns: text("allowed_columns").array(),
    /** Publishable keys: requests per minute from one visitor address. */
    visitorLimit: integer("visitor_limit"),
    /** Form keys: the one tab they append rows to. */
    formTab: text("form_tab"),
    /** Form keys: the addresses a browser may be sent to after a submission; the first is the default. */
    allowedRedirects: text("allowed_redirects")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Form keys: the fields accepted (column names); null accepts every column of the tab. */
    formFields: text("form_fields").array(),
    /** Form keys: `drop` or `refuse` a field the key does not accept. */
    unknownFields: text("unknown_fields").notNull().default("drop"),
    /** Form keys: the message of the hosted thank-you page. */
    thankYouMessage: text("thank_you_message"),
    /** Form keys: submissions written, and refused (spam, limits, validation). */
    formAccepted: integer("form_accepted").notNull().default(0),
    formRefused: integer("form_refused").notNull().default(0),
    /** The owner allows this key to read formulas (`?formulas=true`); off by default. */
    readFormulas: boolean("read_formulas").notNull().default(false),
    /** The owner makes this key's writes refuse formulas (values starting with `=`) under USER_ENTERED writes. */
    refuseFormulas: boolean("refuse_formulas").notNull().default(false),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    /** When an account that proved edit access claimed the sheet: the key stops (DECISIONS 18). */
    claimedAt: timestamp("claimed_at", { withTimezone: true, mode: "date" }),
    /** Bumped on every change, so caches never let an older copy replace a newer one. */
    version: integer("version").notNull().default(1),
  },
  (t) => [index("api_keys_sheet_idx").on(t.sheetId)],
);

/** A sheet taken over by an account that proved edit access: shown to the previous owner. */
export const sheetClaims = pgTable(
  "sheet_claims",
  {
    id: text("id").primaryKey(),
    sheetId: text("sheet_id").notNull(),
    sheetName: text("sheet_name").notNull(),
    previousUserId: text("previous_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    claimedAt: createdAt(),
  },
  (t) => [index("sheet_claims_previous_user_idx").on(t.previousUserId)],
);

// --- Usage ---------------------------------------------------------------------------------------

/** Requests per account, sheet, key, UTC day and status class; written in batches. */
export const usageDaily = pgTable(
  "usage_daily",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sheetId: text("sheet_id").notNull(),
    keyId: text("key_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    statusClass: text("status_class").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.sheetId, t.keyId, t.day, t.statusClass] }),
    index("usage_daily_user_day_idx").on(t.userId, t.day),
  ],
);

/**
 * Usage batches rolled up from the limit store into usage_daily (lib/usage/usage-ledger.ts): a
 * batch's id is written in the same transaction as its counts, so a batch rolled up again (the
 * roller died before removing it from the store) is recognised and not counted twice.
 */
export const usageRollups = pgTable("usage_rollups", {
  id: text("id").primaryKey(),
  rolledAt: timestamp("rolled_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/** Per sheet and UTC day: Google calls made for it and how reads were served; written in batches. */
export const sheetStatsDaily = pgTable(
  "sheet_stats_daily",
  {
    sheetId: text("sheet_id")
      .notNull()
      .references(() => sheets.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    googleCalls: integer("google_calls").notNull().default(0),
    cacheHits: integer("cache_hits").notNull().default(0),
    cacheMisses: integer("cache_misses").notNull().default(0),
    staleServed: integer("stale_served").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.sheetId, t.day] })],
);

/**
 * The largest integer id each tab has handed out or held (DECISIONS 2: never reused, even after
 * the row holding it is deleted). Creates take their ids from here, atomically on any instance.
 * Keyed by the spreadsheet, not its registration: a sheet registered again keeps its ids' past;
 * and by the tab's gid (`tab` is `gid:{gid}`), so a renamed tab keeps it too. Marks from before
 * gids hold the tab's name there and are still read (db/queries/id-marks.ts).
 */
export const tabIdMarks = pgTable(
  "tab_id_marks",
  {
    sheetId: text("sheet_id").notNull(),
    tab: text("tab").notNull(),
    lastId: bigint("last_id", { mode: "number" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.sheetId, t.tab] })],
);

// --- Change events and webhooks -----------------------------------------------------------------

/** A sheet whose changes become events: from its first endpoint or its first poll of /events on. */
export const changeTracking = pgTable("change_tracking", {
  sheetId: text("sheet_id")
    .primaryKey()
    .references(() => sheets.id, { onDelete: "cascade" }),
  startedAt: createdAt(),
});

/**
 * The last copy of a tab that events were produced from: a re-read is compared with it, and a
 * write through the API moves it on, so the write's own events are not produced twice.
 */
export const tabSnapshots = pgTable(
  "tab_snapshots",
  {
    sheetId: text("sheet_id")
      .notNull()
      .references(() => sheets.id, { onDelete: "cascade" }),
    tab: text("tab").notNull(),
    /** When the read this copy came from started: an older read never replaces a newer copy. */
    observedAt: timestamp("observed_at", { withTimezone: true, mode: "date" }).notNull(),
    digest: text("digest").notNull(),
    /** The copy as JSON text (columns, id column or not, rows). */
    content: text("content").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sheetId, t.tab] })],
);

/** One change of a tracked sheet, in the order it was seen (`seq`). */
export const changeEvents = pgTable(
  "change_events",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    /** The Standard Webhooks message id (`webhook-id`): the same on every delivery and resend. */
    id: text("id").notNull().unique(),
    sheetId: text("sheet_id")
      .notNull()
      .references(() => sheets.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    tab: text("tab").notNull(),
    rowId: text("row_id"),
    /** "api" for writes through the service, "sheet" for edits found in Google Sheets. */
    source: text("source").notNull(),
    data: jsonb("data").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("change_events_sheet_seq_idx").on(t.sheetId, t.seq)],
);

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    sheetId: text("sheet_id")
      .notNull()
      .references(() => sheets.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** Event types wanted; empty: all. */
    events: text("events")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Tabs wanted; empty: all. */
    tabs: text("tabs")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    enabled: boolean("enabled").notNull().default(true),
    /** The signing secret (whsec_...), AES-256-GCM under ENCRYPTION_KEY: shown once, rotatable. */
    secretCiphertext: text("secret_ciphertext").notNull(),
    /** Secrets replaced by a rotation, each still signing beside the current one until its `until` (ISO time). */
    previousSecrets: jsonb("previous_secrets").$type<{ ciphertext: string; until: string }[]>().notNull().default([]),
    /** Why the service disabled it (failing for days), shown to the owner; null when the owner did. */
    disabledReason: text("disabled_reason"),
    /** First failed attempt since the last success. */
    failingSince: timestamp("failing_since", { withTimezone: true, mode: "date" }),
    lastSuccessAt: timestamp("last_success_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_endpoints_sheet_idx").on(t.sheetId)],
);

/** One event for one endpoint: delivered in `eventSeq` order within its stream (endpoint, tab, row). */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventSeq: bigint("event_seq", { mode: "number" })
      .notNull()
      .references(() => changeEvents.seq, { onDelete: "cascade" }),
    stream: text("stream").notNull(),
    /** pending | delivered | failed (gave up after a day) | cancelled (endpoint disabled or deleted, or its sheet suspended) */
    state: text("state").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** A worker holds the delivery until then (a crashed worker's hold runs out). */
    leasedUntil: timestamp("leased_until", { withTimezone: true, mode: "date" }),
    lastStatus: integer("last_status"),
    lastLatencyMs: integer("last_latency_ms"),
    lastError: text("last_error"),
    /** The start of the receiver's last answer (bounded). */
    lastResponse: text("last_response"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_deliveries_stream_idx").on(t.endpointId, t.stream, t.eventSeq),
    index("webhook_deliveries_state_idx").on(t.state, t.nextAttemptAt),
  ],
);

/** Every attempt of a delivery: the log the owner reads. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    at: createdAt(),
    status: integer("status"),
    latencyMs: integer("latency_ms").notNull(),
    error: text("error"),
    requestHeaders: jsonb("request_headers").notNull(),
    response: text("response"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId)],
);

// --- Billing (Stripe) ---------------------------------------------------------------------------

/**
 * An account's Stripe customer (created once, at its first checkout) and the subscription state
 * Stripe last reported (DECISIONS 14): `plan` on users follows it. The period is the
 * subscription's current one, which paid accounts' monthly window follows.
 */
export const billingAccounts = pgTable("billing_accounts", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  stripeCustomerId: text("stripe_customer_id").notNull().unique(),
  subscriptionId: text("subscription_id"),
  /** Stripe's subscription status (active, past_due, canceled, ...), or null before any. */
  status: text("status"),
  priceId: text("price_id"),
  currentPeriodStart: timestamp("current_period_start", { withTimezone: true, mode: "date" }),
  currentPeriodEnd: timestamp("current_period_end", { withTimezone: true, mode: "date" }),
  cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/** Stripe events already handled: a redelivery (Stripe retries, duplicates) changes nothing twice. */
export const stripeEvents = pgTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  processedAt: timestamp("processed_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/**
 * The database's own name among others sharing one limit store (db/client.ts, databaseScope): one
 * row, its id drawn at random the first time an instance asks, so every instance finds the same
 * one whatever address it reaches the database by.
 */
export const databaseIdentity = pgTable("database_identity", {
  one: boolean("one").primaryKey().default(true),
  id: text("id").notNull(),
  createdAt: createdAt(),
});

export type User = typeof users.$inferSelect;
export type GoogleGrant = typeof googleGrants.$inferSelect;
export type SheetClaim = typeof sheetClaims.$inferSelect;
export type Sheet = typeof sheets.$inferSelect;
export type NewSheet = typeof sheets.$inferInsert;
export type ApiKey = typeof apiKeys.$inferSelect;
export type NewApiKey = typeof apiKeys.$inferInsert;
export type UsageRow = typeof usageDaily.$inferInsert;
export type SheetStatsRow = typeof sheetStatsDaily.$inferInsert;
export type ChangeEvent = typeof changeEvents.$inferSelect;
export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type NewWebhookDelivery = typeof webhookDeliveries.$inferInsert;
export type NewWebhookEndpoint = typeof webhookEndpoints.$inferInsert;
export type WebhookAttempt = typeof webhookAttempts.$inferSelect;
export type BillingAccount = typeof billingAccounts.$inferSelect;
