-- The database's own id (db/client.ts, databaseScope): what the limit store keeps for this database is
-- filed under it, so instances reaching it by different addresses share it (one row).
CREATE TABLE "database_identity" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
