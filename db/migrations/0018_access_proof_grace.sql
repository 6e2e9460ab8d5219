-- Loops of re-checks are bounded (a refusal forces one at most once an interval), and a registration
-- made before proof existed gets a grace period before it is suspended (DECISIONS 18, docs/security.md).
ALTER TABLE "sheets" ADD COLUMN "access_forced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sheets" ADD COLUMN "access_unproven_since" timestamp with time zone;