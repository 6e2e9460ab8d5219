-- A key can refuse formulas in its writes (USER_ENTERED writes would enter "=..." as one; docs/security.md).
ALTER TABLE "api_keys" ADD COLUMN "refuse_formulas" boolean DEFAULT false NOT NULL;
