// The /version.json file the build writes and the app polls (SPEC §3 version info, §4 version check).
import { z } from 'zod';
import { LOCALES, type Locale } from './locales';

/** The version the client compares against when it knows no other (SPEC §9). */
export const VERSION_BASELINE = '2.0.0';

const semver = z.string().regex(/^\d+\.\d+\.\d+$/, 'expected MAJOR.MINOR.PATCH');

export const versionInfoSchema = z.object({
  version: semver,
  changelog: z.object(
    Object.fromEntries(LOCALES.map((locale) => [locale, z.string()])) as Record<Locale, z.ZodString>,
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
