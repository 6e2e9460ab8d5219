-- Id marks kept under a tab's name are copied under its gid (`gid:{gid}`), as the sheet's stored
-- model names them, so a tab renamed before its next create keeps its ids' past. Only raises.
INSERT INTO "tab_id_marks" ("sheet_id", "tab", "last_id", "updated_at")
SELECT m."sheet_id", 'gid:' || (t->>'gid'), max(m."last_id"), now()
FROM "tab_id_marks" m
JOIN "sheets" s ON s."id" = m."sheet_id"
CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(s."schema"->'tabs') = 'array' THEN s."schema"->'tabs' ELSE '[]'::jsonb END) t
WHERE m."tab" NOT LIKE 'gid:%' AND t->>'name' = m."tab" AND jsonb_typeof(t->'gid') = 'number'
GROUP BY m."sheet_id", t->>'gid'
ON CONFLICT ("sheet_id", "tab") DO UPDATE SET "last_id" = greatest("tab_id_marks"."last_id", excluded."last_id");
