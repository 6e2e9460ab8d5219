CREATE TABLE "tab_id_marks" (
	"sheet_id" text NOT NULL,
	"tab" text NOT NULL,
	"last_id" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tab_id_marks_sheet_id_tab_pk" PRIMARY KEY("sheet_id","tab")
);
