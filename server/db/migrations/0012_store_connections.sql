CREATE TABLE "store_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"account_id" text NOT NULL,
	"account_name" text NOT NULL,
	"sealed_keys" text NOT NULL,
	"key_hint" text NOT NULL,
	"expires_at" timestamp with time zone,
	"status" text DEFAULT 'active' NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_connections_platform_known" CHECK ("platform" IN ('wildberries', 'ozon', 'amazon', 'demo')),
	CONSTRAINT "store_connections_status_known" CHECK ("store_connections"."status" IN ('active', 'invalid'))
);
--> statement-breakpoint
ALTER TABLE "store_connections" ADD CONSTRAINT "store_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "store_connections_account_key" ON "store_connections" USING btree ("user_id","platform","account_id");--> statement-breakpoint
CREATE INDEX "store_connections_user_idx" ON "store_connections" USING btree ("user_id","created_at");