CREATE TABLE "publication_items" (
	"publication_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"asset_id" uuid,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"slot" integer,
	"message" text,
	"remote_url" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "publication_items_publication_id_position_pk" PRIMARY KEY("publication_id","position"),
	CONSTRAINT "publication_items_status_known" CHECK ("status" IN ('pending', 'sent', 'applied', 'failed')),
	CONSTRAINT "publication_items_kind_known" CHECK ("publication_items"."kind" IN ('image', 'video'))
);
--> statement-breakpoint
CREATE TABLE "publications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"connection_id" uuid,
	"platform" text NOT NULL,
	"product_id" text NOT NULL,
	"product_article" text NOT NULL,
	"product_title" text NOT NULL,
	"placement" text NOT NULL,
	"mode" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"job_id" bigint,
	"remote_task" text,
	"message" text,
	"locale" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "publications_platform_known" CHECK ("platform" IN ('wildberries', 'ozon', 'amazon', 'demo')),
	CONSTRAINT "publications_status_known" CHECK ("status" IN ('queued', 'running', 'done', 'partial', 'failed')),
	CONSTRAINT "publications_placement_known" CHECK ("publications"."placement" IN ('main', 'gallery')),
	CONSTRAINT "publications_mode_known" CHECK ("publications"."mode" IN ('append', 'replace'))
);
--> statement-breakpoint
ALTER TABLE "publication_items" ADD CONSTRAINT "publication_items_publication_id_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."publications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publication_items" ADD CONSTRAINT "publication_items_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_connection_id_store_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."store_connections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "publications_idempotency_key" ON "publications" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "publications_user_idx" ON "publications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "publications_job_key" ON "publications" USING btree ("job_id");