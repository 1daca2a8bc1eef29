CREATE TABLE "content_versions" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "content_versions" ADD CONSTRAINT "content_versions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE FUNCTION "bump_content_versions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Once per statement and seller; a seller being deleted (a cascade) has nothing left to version.
  INSERT INTO content_versions AS v (user_id, version)
  SELECT DISTINCT c.user_id, 1 FROM changed c WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = c.user_id)
  ON CONFLICT (user_id) DO UPDATE SET version = v.version + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "bump_content_versions_of_tasks"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO content_versions AS v (user_id, version)
  SELECT DISTINCT t.user_id, 1 FROM changed c JOIN tasks t ON t.id = c.task_id
  ON CONFLICT (user_id) DO UPDATE SET version = v.version + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "tasks_inserted_version" AFTER INSERT ON "tasks" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_content_versions();--> statement-breakpoint
CREATE TRIGGER "tasks_updated_version" AFTER UPDATE ON "tasks" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_content_versions();--> statement-breakpoint
CREATE TRIGGER "tasks_deleted_version" AFTER DELETE ON "tasks" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_content_versions();--> statement-breakpoint
CREATE TRIGGER "assets_inserted_version" AFTER INSERT ON "assets" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_content_versions();--> statement-breakpoint
CREATE TRIGGER "assets_updated_version" AFTER UPDATE ON "assets" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_content_versions();--> statement-breakpoint
CREATE TRIGGER "assets_deleted_version" AFTER DELETE ON "assets" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_content_versions();--> statement-breakpoint
CREATE TRIGGER "materials_updated_version" AFTER UPDATE ON "materials" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_content_versions();--> statement-breakpoint
CREATE TRIGGER "materials_deleted_version" AFTER DELETE ON "materials" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_content_versions();--> statement-breakpoint
CREATE TRIGGER "task_outputs_inserted_version" AFTER INSERT ON "task_outputs" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_content_versions_of_tasks();--> statement-breakpoint
CREATE TRIGGER "task_outputs_updated_version" AFTER UPDATE ON "task_outputs" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_content_versions_of_tasks();
