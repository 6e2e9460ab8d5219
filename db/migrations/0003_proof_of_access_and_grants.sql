CREATE TABLE "google_grants" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"google_sub" text NOT NULL,
	"email" text NOT NULL,
	"refresh_token_ciphertext" text NOT NULL,
	"scope" text NOT NULL,
	"needs_reauth" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sheet_claims" (
	"id" text PRIMARY KEY NOT NULL,
	"sheet_id" text NOT NULL,
	"sheet_name" text NOT NULL,
	"previous_user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sheets" ADD COLUMN "proof" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "sheets" ADD COLUMN "grant_id" text;--> statement-breakpoint
ALTER TABLE "google_grants" ADD CONSTRAINT "google_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sheet_claims" ADD CONSTRAINT "sheet_claims_previous_user_id_users_id_fk" FOREIGN KEY ("previous_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "google_grants_user_sub_idx" ON "google_grants" USING btree ("user_id","google_sub");--> statement-breakpoint
CREATE INDEX "sheet_claims_previous_user_idx" ON "sheet_claims" USING btree ("previous_user_id");--> statement-breakpoint
ALTER TABLE "sheets" ADD CONSTRAINT "sheets_grant_id_google_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."google_grants"("id") ON DELETE set null ON UPDATE no action;