// A Lighthouse mobile run (its default: Moto G Power emulation, simulated slow 4G) in the
// system Chromium.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM, CHROMIUM_FLAGS } from './page-js';

export interface LighthouseScores {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
}

/** One run; null when Lighthouse could not score the page (it reports a runtime error). */
export async function runLighthouse(url: string): Promise<LighthouseScores | null> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    });
    if (!result) throw new Error('Lighthouse returned no result');
    const { categories, audits, runtimeError } = result.lhr;
    if (runtimeError || categories.performance?.score == null || categories['best-practices']?.score == null) {
      console.warn(`Lighthouse run not scored: ${runtimeError?.message ?? 'a category has no score'}`);
      return null;
    }
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
      tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
      cls: Number((audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
    };
  } finally {
    chrome.kill();
  }
}

/**
 * Lighthouse's advice for noisy machines: run several times and report the median run (by
 * performance score); runs that could not be scored are counted and left out.
 */
export async function medianLighthouse(url: string, runs: number): Promise<{ median: LighthouseScores; scored: number; all: number[] }> {
  const results: LighthouseScores[] = [];
  for (let i = 0; i < runs; i += 1) {
    const result = await runLighthouse(url);
    if (result) results.push(result);
  }
  if (results.length === 0) throw new Error('No Lighthouse run could be scored');
  results.sort((a, b) => a.performance - b.performance);
  return {
    median: results[Math.floor(results.length / 2)]!,
    scored: results.length,
    all: results.map((r) => r.performance),
  };
}
