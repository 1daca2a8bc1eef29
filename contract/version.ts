// The /version.json file the build writes and the app polls (SPEC §3 version info, §4 version check).
// Written with zod/mini: the page validates it on every start, so it should cost few bytes.
import * as z from 'zod/mini';
import { LOCALES, type Locale } from './locales';

/** The version the client compares against when it knows no other (SPEC §9). */
export const VERSION_BASELINE = '2.0.0';

const semver = z.string().check(z.regex(/^\d+\.\d+\.\d+$/, 'expected MAJOR.MINOR.PATCH'));

export const versionInfoSchema = z.object({
  version: semver,
  changelog: z.object(
    Object.fromEntries(LOCALES.map((locale) => [locale, z.string()])) as Record<Locale, z.ZodMiniString>,
  ),
  forceUpdate: z.boolean(),
});
export type VersionInfo = z.infer<typeof versionInfoSchema>;

/** Negative when a < b, zero when equal, positive when a > b (MAJOR.MINOR.PATCH). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i += 1) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}
