ALTER TABLE "api_keys" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "sheets" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;