// A page loaded on first use that can also be loaded ahead, and then renders at once. React.lazy
// suspends once even for a module that has arrived by another way, and in a shell that has just
// mounted that moment would be a blank screen: the shells load a page before they swap (./Root).
import { lazy, useState, type ComponentType } from 'react';

export interface LazyPage<P extends object> {
  (props: P): React.JSX.Element;
  load(): Promise<unknown>;
}

export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyPage<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<unknown> | null = null;
  const Lazy = lazy(load);
  function Page(props: P) {
    // Chosen once per mount, so a page never changes type (and state) under its owner.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  Page.load = () => {
    if (!loading) {
      loading = load().then((module) => (loaded = module.default));
      // A failed load (offline before it was cached) is tried again next time.
      loading.catch(() => (loading = null));
    }
    return loading;
  };
  return Page;
}
