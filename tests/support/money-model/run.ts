// Runs the money model: `runs` random sequences of up to `steps` steps against one app, each run
// with sellers of its own on the database the runs share. The test and `npm run bench -- money`
// both run it; a failure says its seed, its path and how to run it again.
import fc from 'fast-check';
import type { TestApp } from '../test-app';
import { modelOf, moneyCommands, type Model } from './commands';
import type { Deliveries } from './deliveries';
import { newWorld, signUp, type World } from './world';

export interface MoneyRunOptions {
  runs: number;
  /** The most steps of one run. */
  steps: number;
  seed?: number;
  /** fast-check's path of a failed run (with its seed, replays the shrunk sequence). */
  path?: string;
  /** How to run it again with a seed, for the failure's message. */
  rerun: (seed: number, path: string) => string;
}

export interface MoneyRunResult {
  seed: number;
  runs: number;
  /** Steps taken in all, shrinking included. */
  steps: number;
  ms: number;
  /** What the steps came to (see `note`), commonest first. */
  tally: [string, number][];
}

/** The environment variables a rerun is given: the seed and path of the failure. */
export const rerunVariables = (seed: number, path: string) => `MONEY_SEED=${seed} MONEY_PATH=${path}`;

export async function runMoneyModel(t: TestApp, deliveries: Deliveries, options: MoneyRunOptions): Promise<MoneyRunResult> {
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const started = performance.now();
  let steps = 0;
  const tally = new Map<string, number>();
  const setup = async (): Promise<{ model: Model; real: World }> => {
    const world = newWorld(t, deliveries, tally);
    await signUp(world);
    return { model: modelOf(world), real: world };
  };
  const property = fc.asyncProperty(fc.commands(moneyCommands, { maxCommands: options.steps, size: 'max' }), async (commands) => {
    let world: World | undefined;
    try {
      await fc.asyncModelRun(async () => {
        const made = await setup();
        world = made.real;
        return made;
      }, commands);
    } finally {
      steps += world?.steps ?? 0;
    }
  });
  const details = await fc.check(property, { numRuns: options.runs, seed, ...(options.path ? { path: options.path } : {}) });
  if (details.failed) {
    const report = fc.defaultReportMessage(details) ?? 'the money model failed';
    const path = details.counterexamplePath ?? '';
    throw new Error(`${report}\n\nRun this failure again with: ${options.rerun(details.seed, path)}`, { cause: details.errorInstance });
  }
  return { seed, runs: details.numRuns, steps, ms: performance.now() - started, tally: [...tally].sort((a, b) => b[1] - a[1]) };
}
