ALTER TABLE "api_keys" ADD COLUMN "form_tab" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "allowed_redirects" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "form_fields" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "unknown_fields" text DEFAULT 'drop' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "thank_you_message" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "form_accepted" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "form_refused" integer DEFAULT 0 NOT NULL;