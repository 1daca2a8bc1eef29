-- A seller's photos list, consumption history and balance are kept as answers too
-- (server/content/list-answers.ts), by the same content version as the other lists: a new photo
-- and a ledger entry now move it, as every other change a kept answer shows already does (0005).
-- A ledger entry changes only in the transaction that adds it (the lots' trigger lowering a
-- give-back), and a wallet or its lots change only with an entry in the same transaction. Like the
-- counts by day of 0015 (which they fire before: triggers fire in name order), they lock what
-- they move after the wallet row that every movement holds first.
CREATE TRIGGER "materials_inserted_version" AFTER INSERT ON "materials" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_content_versions();--> statement-breakpoint
CREATE TRIGGER "ledger_inserted_version" AFTER INSERT ON "ledger" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_content_versions();--> statement-breakpoint
CREATE TRIGGER "ledger_deleted_version" AFTER DELETE ON "ledger" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_content_versions();
