// Prints the ten slowest test files and the ten slowest tests once a run ends, so where the
// suite's time goes is seen on every run, not only when someone goes looking.
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 10;

const listed = (title: string, timed: { duration: number; name: string }[]) => {
  timed.sort((a, b) => b.duration - a.duration);
  const lines = timed.slice(0, SHOWN).map(({ duration, name }) => `${(duration / 1000).toFixed(1).padStart(7)} s  ${name}`);
  return `\nThe ${Math.min(SHOWN, timed.length)} slowest ${title}:\n${lines.join('\n')}\n`;
};

export default class SlowestTests implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const timed: { duration: number; name: string }[] = [];
    const files: { duration: number; name: string }[] = [];
    for (const module of testModules) {
      // The file's whole time: its imports and set-up as well as its tests.
      const { duration: fileDuration } = module.diagnostic();
      files.push({ duration: fileDuration, name: `${module.project.name} ${module.moduleId.replace(`${process.cwd()}/`, '')}` });
      for (const test of module.children.allTests()) {
        const { duration } = test.diagnostic() ?? {};
        if (duration !== undefined) timed.push({ duration, name: `${module.project.name} ${module.moduleId.replace(`${process.cwd()}/`, '')} › ${test.fullName}` });
      }
    }
    if (timed.length === 0) return;
    process.stdout.write(listed('files', files) + listed('tests', timed));
  }
}
