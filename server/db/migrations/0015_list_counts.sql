CREATE TABLE "counted_sellers" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"counted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "list_counts" (
	"user_id" uuid NOT NULL,
	"list" text NOT NULL,
	"day" integer NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "list_counts_user_id_list_day_pk" PRIMARY KEY("user_id","list","day")
);
--> statement-breakpoint
ALTER TABLE "counted_sellers" ADD CONSTRAINT "counted_sellers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_counts" ADD CONSTRAINT "list_counts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The day (UTC) a list counts a row on: days since 1970-01-01 of its created_at. Day d holds the
-- rows with to_timestamp(d * 86400) <= created_at < to_timestamp((d + 1) * 86400).
CREATE FUNCTION "list_day"("at" timestamp with time zone) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT floor(extract(epoch FROM "at") / 86400)::integer $$;
--> statement-breakpoint
-- Moves the counts by `changes` (each [user_id, list, day, n]) times `sign`, for the sellers
-- whose counts are kept. A seller not counted yet is left to count_seller_lists, which holds the
-- seller's counted_sellers row while it counts: a change to a seller it did not find counted
-- holds that row too (for share) and reads it again, so either the count waits for the change to
-- commit and sees its rows, or the change waits for the count and is then counted here; never
-- both, never neither. A seller found counted stays counted: no lock is needed.
-- A seller being deleted moves nothing (its counts go with it). Buckets are written in key order,
-- so two statements never wait on each other in a circle.
CREATE FUNCTION "move_list_counts"("changes" jsonb, "sign" integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  sellers uuid[];
  kept uuid[];
BEGIN
  IF "changes" IS NULL THEN
    RETURN;
  END IF;
  SELECT array_agg(DISTINCT (c->>0)::uuid) INTO sellers FROM jsonb_array_elements("changes") c;
  SELECT coalesce(array_agg(s.user_id), '{}') INTO kept FROM counted_sellers s WHERE s.user_id = ANY(sellers) AND s.counted;
  IF cardinality(kept) < cardinality(sellers) THEN
    PERFORM 1 FROM counted_sellers s WHERE s.user_id = ANY(sellers) ORDER BY s.user_id FOR SHARE;
    SELECT coalesce(array_agg(s.user_id), '{}') INTO kept FROM counted_sellers s WHERE s.user_id = ANY(sellers) AND s.counted;
  END IF;
  INSERT INTO list_counts AS k (user_id, list, day, n)
  SELECT (c->>0)::uuid, c->>1, (c->>2)::integer, "sign" * (c->>3)::integer FROM jsonb_array_elements("changes") c
  WHERE (c->>0)::uuid = ANY(kept) AND EXISTS (SELECT 1 FROM users u WHERE u.id = (c->>0)::uuid)
  ORDER BY 1, 2, 3
  ON CONFLICT (user_id, list, day) DO UPDATE SET n = k.n + excluded.n;
END $$;
--> statement-breakpoint
-- Tasks, photos and ledger entries, counted by the statement that inserts or deletes them: in
-- plain statements (this runs on every submission and every ledger entry), holding a seller not
-- counted yet for share first, as move_list_counts does.
CREATE FUNCTION "count_list_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
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
-- Results, counted in their section of material history, the same way.
CREATE FUNCTION "count_asset_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
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
--> statement-breakpoint
-- A row given another seller, time or section (nothing does today) moves to that list and day.
CREATE FUNCTION "recount_moved_row"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was jsonb := to_jsonb(OLD);
  now jsonb := to_jsonb(NEW);
  list_was text := CASE WHEN TG_TABLE_NAME = 'assets' THEN 'assets:' || (was->>'section') ELSE TG_TABLE_NAME END;
  list_now text := CASE WHEN TG_TABLE_NAME = 'assets' THEN 'assets:' || (now->>'section') ELSE TG_TABLE_NAME END;
  day_was integer := list_day((was->>'created_at')::timestamptz);
  day_now integer := list_day((now->>'created_at')::timestamptz);
BEGIN
  IF was->>'user_id' <> now->>'user_id' OR list_was <> list_now OR day_was <> day_now THEN
    PERFORM move_list_counts(jsonb_build_array(jsonb_build_array(was->>'user_id', list_was, day_was, 1)), -1);
    PERFORM move_list_counts(jsonb_build_array(jsonb_build_array(now->>'user_id', list_now, day_now, 1)), 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Counts a seller made before the counts were kept, once: holds the seller's row (a change made
-- meanwhile waits, see move_list_counts), then counts in statements that see every change
-- committed before it got the row. Run on its own in READ COMMITTED (each statement a new
-- snapshot). False when the seller is counted already, gone, or being counted elsewhere.
CREATE FUNCTION "count_seller_lists"("seller" uuid) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM counted_sellers WHERE user_id = "seller" AND NOT counted FOR UPDATE SKIP LOCKED;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  DELETE FROM list_counts WHERE user_id = "seller";
  INSERT INTO list_counts (user_id, list, day, n)
  SELECT "seller", 'tasks', list_day(created_at), count(*) FROM tasks WHERE user_id = "seller" GROUP BY 3
  UNION ALL SELECT "seller", 'materials', list_day(created_at), count(*) FROM materials WHERE user_id = "seller" GROUP BY 3
  UNION ALL SELECT "seller", 'ledger', list_day(created_at), count(*) FROM ledger WHERE user_id = "seller" GROUP BY 3
  UNION ALL SELECT "seller", 'assets:' || section, list_day(created_at), count(*) FROM assets WHERE user_id = "seller" GROUP BY 2, 3;
  UPDATE counted_sellers SET counted = true WHERE user_id = "seller";
  RETURN true;
END $$;
--> statement-breakpoint
CREATE FUNCTION "count_new_sellers"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO counted_sellers (user_id, counted) SELECT id, true FROM changed;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A new seller has nothing to count: counted from the start. The sellers already here are
-- counted after the migration (server/db/pages.ts countSellers), a seller at a time, so no table
-- is held for writes while they are; their lists are counted as they are read until then.
CREATE TRIGGER "users_counted" AFTER INSERT ON "users" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_new_sellers();--> statement-breakpoint
INSERT INTO "counted_sellers" ("user_id") SELECT "id" FROM "users";--> statement-breakpoint
CREATE TRIGGER "tasks_rows_counted" AFTER INSERT ON "tasks" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_list_rows();--> statement-breakpoint
CREATE TRIGGER "tasks_rows_uncounted" AFTER DELETE ON "tasks" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_list_rows();--> statement-breakpoint
CREATE TRIGGER "tasks_row_moved" AFTER UPDATE OF "user_id", "created_at" ON "tasks" FOR EACH ROW EXECUTE FUNCTION recount_moved_row();--> statement-breakpoint
CREATE TRIGGER "materials_rows_counted" AFTER INSERT ON "materials" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_list_rows();--> statement-breakpoint
CREATE TRIGGER "materials_rows_uncounted" AFTER DELETE ON "materials" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_list_rows();--> statement-breakpoint
CREATE TRIGGER "materials_row_moved" AFTER UPDATE OF "user_id", "created_at" ON "materials" FOR EACH ROW EXECUTE FUNCTION recount_moved_row();--> statement-breakpoint
CREATE TRIGGER "ledger_rows_counted" AFTER INSERT ON "ledger" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_list_rows();--> statement-breakpoint
CREATE TRIGGER "ledger_rows_uncounted" AFTER DELETE ON "ledger" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_list_rows();--> statement-breakpoint
CREATE TRIGGER "ledger_row_moved" AFTER UPDATE OF "user_id", "created_at" ON "ledger" FOR EACH ROW EXECUTE FUNCTION recount_moved_row();--> statement-breakpoint
CREATE TRIGGER "assets_rows_counted" AFTER INSERT ON "assets" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_asset_rows();--> statement-breakpoint
CREATE TRIGGER "assets_rows_uncounted" AFTER DELETE ON "assets" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_asset_rows();--> statement-breakpoint
CREATE TRIGGER "assets_row_moved" AFTER UPDATE OF "user_id", "category", "created_at" ON "assets" FOR EACH ROW EXECUTE FUNCTION recount_moved_row();
