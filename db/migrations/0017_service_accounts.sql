ALTER TABLE "sheets" ADD COLUMN "service_account" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "service_account" text;