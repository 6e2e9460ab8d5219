-- Proof of access is current, not historical (DECISIONS 18): the registrant's access as Google last
-- confirmed it, and when, so every instance re-checks it on the same schedule.
ALTER TABLE "sheets" ADD COLUMN "access_state" text DEFAULT 'current' NOT NULL;--> statement-breakpoint
ALTER TABLE "sheets" ADD COLUMN "access_checked_at" timestamp with time zone DEFAULT now() NOT NULL;
