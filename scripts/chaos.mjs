// @ts-check
// `npm run chaos -- --cycles 100 [--seed N]`: the offline chaos journey (e2e/chaos.spec.ts) at a
// length of your choosing, against a fresh build. `npm test` runs it with 30 cycles.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { cycles: { type: 'string', default: '100' }, seed: { type: 'string' } },
});
for (const [name, value] of Object.entries(values)) {
  if (value !== undefined && !/^\d+$/.test(value)) {
    console.error(`--${name} must be a whole number, not "${value}"`);
    process.exit(2);
  }
}

/** @param {string[]} command @param {NodeJS.ProcessEnv} [env] */
function run(command, env = process.env) {
  const result = spawnSync(command[0] ?? '', command.slice(1), { stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run(['npm', 'run', 'build', '--', '--logLevel', 'warn']);
run(['npx', 'playwright', 'test', 'e2e/chaos.spec.ts', '--project=chaos', '--no-deps', '--retries=0'], {
  ...process.env,
  CHAOS_CYCLES: values.cycles,
  ...(values.seed ? { CHAOS_SEED: values.seed } : {}),
});
