CREATE TABLE "customers" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mandates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"client" text NOT NULL,
	"method" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reference" text NOT NULL,
	"provider_mandate_id" text,
	"provider_method_id" text,
	"redirect_url" text,
	"failure_reason" text,
	"check_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checks" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mandates_status_known" CHECK ("status" IN ('pending', 'active', 'failed', 'revoked'))
);
--> statement-breakpoint
CREATE TABLE "sandbox_methods" (
	"id" text PRIMARY KEY NOT NULL,
	"checkout_id" text NOT NULL,
	"method" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"declines" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_charges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"plan_id" integer NOT NULL,
	"interval" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"tokens" integer NOT NULL,
	"amount_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider_payment_id" text,
	"failure_reason" text,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_events_provider_event_id_pk" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"client" text NOT NULL,
	"billing" text NOT NULL,
	"mandate_id" uuid,
	"provider_subscription_id" text,
	"provider_checkout_id" text,
	"reference" text NOT NULL,
	"plan_id" integer NOT NULL,
	"interval" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"cancel_at" timestamp with time zone,
	"current_period_start" timestamp with time zone,
	"current_period_end" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"renew_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"provider_state_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_status_known" CHECK ("status" IN ('pending', 'failed', 'revoked', 'active', 'canceled', 'past_due', 'unpaid'))
);
--> statement-breakpoint
CREATE TABLE "token_lots" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "token_lots_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"entry_id" bigint,
	"amount" integer NOT NULL,
	"remaining" integer NOT NULL,
	"expires_at" timestamp with time zone,
	CONSTRAINT "token_lots_remaining_range" CHECK ("token_lots"."remaining" >= 0 AND "token_lots"."remaining" <= "token_lots"."amount")
);
--> statement-breakpoint
ALTER TABLE "ledger" DROP CONSTRAINT "ledger_type_known";--> statement-breakpoint
ALTER TABLE "ledger" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sandbox_checkouts" ADD COLUMN "mode" text DEFAULT 'payment' NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_checkouts" ADD COLUMN "method_id" text;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mandates" ADD CONSTRAINT "mandates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_charges" ADD CONSTRAINT "subscription_charges_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_charges" ADD CONSTRAINT "subscription_charges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_mandate_id_mandates_id_fk" FOREIGN KEY ("mandate_id") REFERENCES "public"."mandates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_lots" ADD CONSTRAINT "token_lots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_lots" ADD CONSTRAINT "token_lots_entry_id_ledger_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."ledger"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mandates_provider_key" ON "mandates" USING btree ("provider","provider_mandate_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mandates_user_reference_key" ON "mandates" USING btree ("user_id","reference");--> statement-breakpoint
CREATE INDEX "mandates_user_idx" ON "mandates" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "mandates_pending_idx" ON "mandates" USING btree ("check_at") WHERE status = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_charges_period_key" ON "subscription_charges" USING btree ("subscription_id","period_start") WHERE status <> 'failed';--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_charges_provider_key" ON "subscription_charges" USING btree ("provider_payment_id");--> statement-breakpoint
CREATE INDEX "subscription_charges_pending_idx" ON "subscription_charges" USING btree ("created_at") WHERE status = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_user_reference_key" ON "subscriptions" USING btree ("user_id","reference");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_provider_key" ON "subscriptions" USING btree ("provider","provider_subscription_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_checkout_key" ON "subscriptions" USING btree ("provider","provider_checkout_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_one_live_key" ON "subscriptions" USING btree ("user_id") WHERE status IN ('pending', 'active', 'past_due');--> statement-breakpoint
CREATE INDEX "subscriptions_renew_idx" ON "subscriptions" USING btree ("renew_at") WHERE billing = 'mandate' AND status IN ('active', 'past_due', 'unpaid');--> statement-breakpoint
CREATE INDEX "token_lots_spend_idx" ON "token_lots" USING btree ("user_id","expires_at","id") WHERE remaining > 0;--> statement-breakpoint
CREATE INDEX "token_lots_expiry_idx" ON "token_lots" USING btree ("expires_at") WHERE remaining > 0 AND expires_at IS NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger" ADD CONSTRAINT "ledger_type_known" CHECK ("type" IN ('top_up', 'subscription', 'sign_up_bonus', 'content_generation', 'refund', 'expiry'));--> statement-breakpoint
-- What is left of each credit (DESIGN §4 Tokens). Balances from before lots existed become one
-- lot each that never lapses, so the lots add up to every wallet from the start.
INSERT INTO "token_lots" ("user_id", "entry_id", "amount", "remaining", "expires_at")
SELECT "user_id", NULL, "total_tokens", "total_tokens", NULL FROM "wallets" WHERE "total_tokens" > 0;--> statement-breakpoint
-- Every ledger entry keeps the lots: a credit opens a lot (lapsing when the entry says); taking
-- tokens spends the lots that lapse first, then the oldest. The caller holds the seller's wallet
-- row (every movement changes it), so concurrent movements of one seller take turns here, and
-- each statement below reads the lots as the previous movement left them. An `expiry` entry is
-- written by the expiry job together with the lot it empties, so it spends nothing here.
CREATE FUNCTION "ledger_keeps_lots"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  due integer;
  lot record;
  part integer;
BEGIN
  IF NEW.amount > 0 THEN
    INSERT INTO token_lots (user_id, entry_id, amount, remaining, expires_at)
    VALUES (NEW.user_id, NEW.id, NEW.amount, NEW.amount, NEW.expires_at);
  ELSIF NEW.amount < 0 AND NEW.type <> 'expiry' THEN
    due := -NEW.amount;
    PERFORM 1 FROM wallets WHERE user_id = NEW.user_id FOR UPDATE;
    FOR lot IN
      SELECT id, remaining FROM token_lots
      WHERE user_id = NEW.user_id AND remaining > 0
      ORDER BY expires_at NULLS LAST, id
      FOR UPDATE
    LOOP
      EXIT WHEN due = 0;
      part := least(due, lot.remaining);
      UPDATE token_lots SET remaining = remaining - part WHERE id = lot.id;
      due := due - part;
    END LOOP;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "ledger_keeps_lots" AFTER INSERT ON "ledger" FOR EACH ROW EXECUTE FUNCTION "ledger_keeps_lots"();
