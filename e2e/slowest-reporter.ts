// Prints the ten slowest journeys once a run ends, with their project (the device they ran on),
// so where the suite's time goes is seen on every run.
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

const SHOWN = 10;

export default class SlowestJourneys implements Reporter {
  private readonly timed: { duration: number; name: string }[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    const project = test.parent.project()?.name ?? '';
    this.timed.push({ duration: result.duration, name: `[${project}] ${test.location.file.replace(`${process.cwd()}/`, '')}:${test.location.line} › ${test.title}${result.retry ? ` (retry ${result.retry})` : ''}` });
  }

  onEnd(_result: FullResult): void {
    if (this.timed.length === 0) return;
    const slowest = [...this.timed].sort((a, b) => b.duration - a.duration).slice(0, SHOWN);
    const lines = slowest.map(({ duration, name }) => `${(duration / 1000).toFixed(1).padStart(7)} s  ${name}`);
    process.stdout.write(`\nThe ${slowest.length} slowest journeys:\n${lines.join('\n')}\n`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
