CREATE TABLE "materials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"file_name" text NOT NULL,
	"file_type" text NOT NULL,
	"file_size" integer NOT NULL,
	"description" text NOT NULL,
	"view" text,
	"storage_key" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"rejection" text,
	"width" integer,
	"height" integer,
	"byte_size" integer,
	"uploaded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "materials" ADD CONSTRAINT "materials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "materials_user_idempotency_key" ON "materials" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "materials_storage_key" ON "materials" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "materials_user_created_idx" ON "materials" USING btree ("user_id","created_at");