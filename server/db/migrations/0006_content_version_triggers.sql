-- A new task and its outputs are inserted by one statement (server/content/tasks.ts
-- insertChargedTask), which moves the seller's content version itself at a fraction of a
-- trigger's cost on the submission path; every later change to them still moves it by trigger
-- (0005). Databases migrated by an earlier copy of 0005 may have neither trigger: IF EXISTS.
DROP TRIGGER IF EXISTS "tasks_inserted_version" ON "tasks";--> statement-breakpoint
DROP TRIGGER IF EXISTS "task_outputs_inserted_version" ON "task_outputs";
