// Loads the Ionic app (its router, components and runtime) once: at start on one of its routes,
// when the seller opens a workspace route, and ahead of time when they start signing in. Given an
// address, it loads that address's page too, so the app shows it as soon as it mounts.
import type { ComponentType } from 'react';
import type * as AppExports from './App';
import type { ShellProps } from './shells';

type AppModule = typeof AppExports;

let loading: Promise<AppModule> | null = null;
let loaded: ComponentType<ShellProps> | null = null;

export async function loadIonicApp(pathname?: string): Promise<ComponentType<ShellProps>> {
  if (!loading) {
    loading = import('./App');
    // A failed load (offline before it was cached) is tried again next time.
    loading.catch(() => (loading = null));
  }
  const module = await loading;
  if (pathname !== undefined) await module.loadPage(pathname);
  loaded = module.App;
  return module.App;
}

/** The Ionic app once it has loaded, to render without waiting. */
export function loadedIonicApp(): ComponentType<ShellProps> | null {
  return loaded;
}
