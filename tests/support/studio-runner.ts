// A job runner of the test app's own, with only the studio engine (a server started without the
// AI engines or ffmpeg), run until one task is finished or a minute has passed, then stopped.
import type { TestApp } from './test-app';
import { JobRunner } from '../../server/jobs/runner';
import { generateHandler } from '../../server/content/pipeline';
import { studioEngine } from '../../server/studio/engine';

export async function runStudioJobsUntilFinished(app: TestApp, taskId: string, options: { leaseMs?: number } = {}): Promise<void> {
  const finished: string[] = [];
  const runner = new JobRunner({
    db: app.app.database.db,
    log: app.app.log,
    concurrency: 1,
    ...options,
    handlers: {
      generate: generateHandler({
        db: app.app.database.db,
        ledger: app.app.ledger,
        storage: app.app.storage,
        engines: () => ({ studio: studioEngine({ ffmpeg: null }) }),
        ffmpeg: null,
        finished: (task) => finished.push(task.id),
      }),
    },
  });
  runner.start();
  // Sized for a busy machine: the task's cut-outs.
  const deadline = Date.now() + 240_000;
  while (!finished.includes(taskId) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  await runner.stop();
}
