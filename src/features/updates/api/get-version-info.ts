// GET /version.json with a cache-busting parameter (SPEC §7 Other).
import { versionInfoSchema, type VersionInfo } from '../../../../contract/version';
import { fetchStaticJson } from '../../../lib/api-client';

export function getVersionInfo(): Promise<VersionInfo> {
  return fetchStaticJson('/version.json', versionInfoSchema, { cacheBust: true });
}
