-- A seller's photos list, consumption history and balance are kept as answers too
-- (server/content/list-answers.ts), by the same content version as the other lists: a new photo
-- and a ledger entry now move it, as every other change a kept answer shows already does (0005).
-- A ledger entry changes only in the transaction that adds it (the lots' trigger lowering a
-- give-back), and a wallet or its lots change only with an entry in the same transaction. Like the
-- counts by day of 0015 (which they fire before: triggers fire in name order), they lock what
-- they move after the wallet row that every movement holds first.
CREATE TRIGGER "materials_inserted_version" AFTER INSERT ON "materials" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_content_versions();--> statement-breakpoint
CREATE TRIGGER "ledger_inserted_version" AFTER INSERT ON "ledger" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_content_versions();--> statement-breakpoint
CREATE TRIGGER "ledger_deleted_version" AFTER DELETE ON "ledger" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_content_versions();--> statement-breakpoint
-- The counts by day of 0015, in plain statements rather than through a JSON list and a function
-- (this runs on every submission and every ledger entry: a ledger entry's counting on PGlite went
-- from 0.4 to 0.07 ms), holding a seller not counted yet for share first, as move_list_counts does.
CREATE OR REPLACE FUNCTION "count_list_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM changed c LEFT JOIN counted_sellers s ON s.user_id = c.user_id WHERE s.counted IS NOT TRUE) THEN
    PERFORM 1 FROM counted_sellers s WHERE s.user_id IN (SELECT c.user_id FROM changed c) ORDER BY s.user_id FOR SHARE;
  END IF;
  INSERT INTO list_counts AS k (user_id, list, day, n)
  SELECT c.user_id, TG_TABLE_NAME, list_day(c.created_at), CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END * count(*)::integer
  FROM changed c JOIN counted_sellers s ON s.user_id = c.user_id AND s.counted
  WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = c.user_id)
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (user_id, list, day) DO UPDATE SET n = k.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "count_asset_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM changed c LEFT JOIN counted_sellers s ON s.user_id = c.user_id WHERE s.counted IS NOT TRUE) THEN
    PERFORM 1 FROM counted_sellers s WHERE s.user_id IN (SELECT c.user_id FROM changed c) ORDER BY s.user_id FOR SHARE;
  END IF;
  INSERT INTO list_counts AS k (user_id, list, day, n)
  SELECT c.user_id, 'assets:' || c.section, list_day(c.created_at), CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END * count(*)::integer
  FROM changed c JOIN counted_sellers s ON s.user_id = c.user_id AND s.counted
  WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = c.user_id)
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (user_id, list, day) DO UPDATE SET n = k.n + excluded.n;
  RETURN NULL;
END $$;
