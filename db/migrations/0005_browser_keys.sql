ALTER TABLE "api_keys" ADD COLUMN "kind" text DEFAULT 'secret' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "allowed_origins" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "allowed_tabs" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "allowed_columns" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "visitor_limit" integer;