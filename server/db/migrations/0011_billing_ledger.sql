CREATE TABLE "billing_locks" (
	"key" text PRIMARY KEY NOT NULL,
	"holder" uuid NOT NULL,
	"until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lot_spends" (
	"entry_id" bigint NOT NULL,
	"lot_id" bigint NOT NULL,
	"amount" integer NOT NULL,
	"restored" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "lot_spends_entry_id_lot_id_pk" PRIMARY KEY("entry_id","lot_id"),
	CONSTRAINT "lot_spends_restored_range" CHECK ("lot_spends"."restored" >= 0 AND "lot_spends"."restored" <= "lot_spends"."amount")
);
--> statement-breakpoint
CREATE TABLE "payment_disputes" (
	"provider" text NOT NULL,
	"dispute_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"target" text NOT NULL,
	"target_id" uuid NOT NULL,
	"status" text NOT NULL,
	"amount_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"taken_tokens" integer DEFAULT 0 NOT NULL,
	"unrecovered_tokens" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_disputes_provider_dispute_id_pk" PRIMARY KEY("provider","dispute_id"),
	CONSTRAINT "payment_disputes_status_known" CHECK ("payment_disputes"."status" IN ('open', 'won', 'lost'))
);
--> statement-breakpoint
DROP INDEX "subscription_charges_period_key";--> statement-breakpoint
ALTER TABLE "ledger" ADD COLUMN "reverses_id" bigint;--> statement-breakpoint
ALTER TABLE "subscription_charges" ADD COLUMN "source" text DEFAULT 'mandate' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_charges" ADD COLUMN "request_key" text;--> statement-breakpoint
ALTER TABLE "subscription_charges" ADD COLUMN "refunded_minor" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_charges" ADD COLUMN "refunded_tokens" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_charges" ADD COLUMN "unrecovered_tokens" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "token_lots" ADD COLUMN "lapsed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lot_spends" ADD CONSTRAINT "lot_spends_entry_id_ledger_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."ledger"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lot_spends" ADD CONSTRAINT "lot_spends_lot_id_token_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."token_lots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_disputes" ADD CONSTRAINT "payment_disputes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lot_spends_lot_idx" ON "lot_spends" USING btree ("lot_id");--> statement-breakpoint
ALTER TABLE "ledger" ADD CONSTRAINT "ledger_reverses_id_ledger_id_fk" FOREIGN KEY ("reverses_id") REFERENCES "public"."ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_charges_request_key" ON "subscription_charges" USING btree ("subscription_id","request_key");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_charges_period_key" ON "subscription_charges" USING btree ("subscription_id","period_start") WHERE status <> 'failed' AND source = 'mandate';--> statement-breakpoint
-- Charges the card provider billed are keyed by its invoice, not by the period's start.
UPDATE "subscription_charges" SET "source" = 'invoice'
WHERE "subscription_id" IN (SELECT "id" FROM "subscriptions" WHERE "billing" = 'provider');--> statement-breakpoint
-- Lots the expiry job has lapsed already never take tokens back.
UPDATE "token_lots" SET "lapsed_at" = "ledger"."created_at"
FROM "ledger" WHERE "ledger"."type" = 'expiry' AND "ledger"."reference" = 'lot:' || "token_lots"."id";--> statement-breakpoint
-- The ledger keeps the lots (DESIGN §4 Tokens), now also remembering what each take spent of
-- each lot, so that undoing it puts tokens back where they came from:
-- * a credit opens a lot (lapsing when the entry says);
-- * a take spends the lots that lapse first, then the oldest; one that undoes a credit (a
--   refunded or disputed payment) spends that credit's own lot first;
-- * a give-back that undoes a take (a refunded output, a won dispute) goes back into the lots
--   the take spent, the last spent first, with their expiry; what belonged to a lot that has
--   lapsed since stays lapsed, and the entry is lowered to what it gave back. A take made before
--   spends were kept is given back as a lot of its own, as before.
-- The caller holds the seller's wallet row (every movement changes it), so concurrent movements
-- of one seller take turns here. An `expiry` entry empties its lot itself and spends nothing.
CREATE OR REPLACE FUNCTION "ledger_keeps_lots"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  due integer;
  given integer;
  lot record;
  part integer;
  own bigint;
BEGIN
  IF NEW.amount > 0 AND NEW.reverses_id IS NOT NULL
     AND EXISTS (SELECT 1 FROM lot_spends WHERE entry_id = NEW.reverses_id) THEN
    due := NEW.amount;
    given := 0;
    FOR lot IN
      SELECT s.lot_id, s.amount - s.restored AS open, l.lapsed_at
      FROM lot_spends s JOIN token_lots l ON l.id = s.lot_id
      WHERE s.entry_id = NEW.reverses_id AND s.amount > s.restored
      ORDER BY l.expires_at DESC NULLS FIRST, l.id DESC
      FOR UPDATE OF s, l
    LOOP
      EXIT WHEN due = 0;
      part := least(due, lot.open);
      UPDATE lot_spends SET restored = restored + part WHERE entry_id = NEW.reverses_id AND lot_id = lot.lot_id;
      IF lot.lapsed_at IS NULL THEN
        UPDATE token_lots SET remaining = remaining + part WHERE id = lot.lot_id;
        given := given + part;
      END IF;
      due := due - part;
    END LOOP;
    IF given <> NEW.amount THEN
      UPDATE ledger SET amount = given WHERE id = NEW.id;
    END IF;
  ELSIF NEW.amount > 0 THEN
    INSERT INTO token_lots (user_id, entry_id, amount, remaining, expires_at)
    VALUES (NEW.user_id, NEW.id, NEW.amount, NEW.amount, NEW.expires_at);
  ELSIF NEW.amount < 0 AND NEW.type <> 'expiry' THEN
    due := -NEW.amount;
    PERFORM 1 FROM wallets WHERE user_id = NEW.user_id FOR UPDATE;
    IF NEW.reverses_id IS NOT NULL THEN
      SELECT id INTO own FROM token_lots WHERE entry_id = NEW.reverses_id;
    END IF;
    FOR lot IN
      SELECT id, remaining FROM token_lots
      WHERE user_id = NEW.user_id AND remaining > 0
      ORDER BY CASE WHEN id = own THEN 0 ELSE 1 END, expires_at NULLS LAST, id
      FOR UPDATE
    LOOP
      EXIT WHEN due = 0;
      part := least(due, lot.remaining);
      UPDATE token_lots SET remaining = remaining - part WHERE id = lot.id;
      INSERT INTO lot_spends (entry_id, lot_id, amount) VALUES (NEW.id, lot.id, part);
      due := due - part;
    END LOOP;
  END IF;
  RETURN NULL;
END
$$;
