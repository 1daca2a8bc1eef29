// Vite plugin: writes /version.json (SPEC §3 version info) from package.json and release.json,
// validated by the same schema the app reads it with.
import fs from 'node:fs';
import type { Plugin } from 'vite';
import { VERSION_BASELINE, compareVersions, versionInfoSchema, type VersionInfo } from '../contract/version';

export function readVersionInfo(packageJsonPath: string, releasePath: string): VersionInfo {
  const pkg = JSON.parse(fs.readFileSync(packageJsonPath, 'utf8')) as { version: string };
  const release = JSON.parse(fs.readFileSync(releasePath, 'utf8')) as Record<string, unknown>;
  // Clients in the field run the baseline or later: a lower version would never be offered to them.
  if (compareVersions(pkg.version, VERSION_BASELINE) < 0) {
    throw new Error(`package.json version ${pkg.version} is below the client baseline ${VERSION_BASELINE} (SPEC §9)`);
  }
  return versionInfoSchema.parse({
    version: pkg.version,
    changelog: release.changelog,
    forceUpdate: release.forceUpdate,
  });
}

export function versionFile(info: VersionInfo): Plugin {
  return {
    name: 'solestudio:version-file',
    apply: 'build',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'version.json',
        source: `${JSON.stringify(info, null, 2)}\n`,
      });
    },
  };
}
