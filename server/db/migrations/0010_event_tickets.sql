CREATE TABLE "used_event_tickets" (
	"nonce" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "used_event_tickets_expires_idx" ON "used_event_tickets" USING btree ("expires_at");