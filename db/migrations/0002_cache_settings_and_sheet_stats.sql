CREATE TABLE "sheet_stats_daily" (
	"sheet_id" text NOT NULL,
	"day" date NOT NULL,
	"google_calls" integer DEFAULT 0 NOT NULL,
	"cache_hits" integer DEFAULT 0 NOT NULL,
	"cache_misses" integer DEFAULT 0 NOT NULL,
	"stale_served" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "sheet_stats_daily_sheet_id_day_pk" PRIMARY KEY("sheet_id","day")
);
--> statement-breakpoint
ALTER TABLE "sheets" ADD COLUMN "max_stale_seconds" integer DEFAULT 300 NOT NULL;--> statement-breakpoint
ALTER TABLE "sheet_stats_daily" ADD CONSTRAINT "sheet_stats_daily_sheet_id_sheets_id_fk" FOREIGN KEY ("sheet_id") REFERENCES "public"."sheets"("id") ON DELETE cascade ON UPDATE no action;