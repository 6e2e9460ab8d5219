CREATE TABLE "usage_rollups" (
	"id" text PRIMARY KEY NOT NULL,
	"rolled_at" timestamp with time zone DEFAULT now() NOT NULL
);
