DROP INDEX "assets_user_category_idx";--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "edit_meta" jsonb;--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "section" text GENERATED ALWAYS AS (CASE WHEN category = 'PRODUCT2' THEN 'PRODUCT' ELSE category END) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "assets_user_section_idx" ON "assets" USING btree ("user_id","section","created_at","id");