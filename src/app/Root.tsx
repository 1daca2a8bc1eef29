// The page's one React root: the shell for the current address (./shells), swapped when the seller
// crosses from one to the other, and what lasts as long as the page whatever the shell: the
// session's start-up and, while signed in, the live updates.
import { startTransition, useCallback, useEffect, useRef, useState, type ComponentType } from 'react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { sessionTokenAtom, store } from '../lib/store';
import { loadedIonicApp, loadIonicApp } from './ionic-app';
import { LightApp, loadLightPage } from './LightApp';
import { coverPage, uncoverPage } from './shell-cover';
import { shellFor, type Shell, type ShellProps } from './shells';
import './test-payments.css';

function useSession() {
  const signedIn = useAtomValue(sessionTokenAtom) !== null;
  const resumed = useRef<Promise<unknown>>(Promise.resolve());

  useEffect(() => {
    // At start with a stored token the server confirms the session (SPEC §4).
    if (signedIn) {
      resumed.current = import('../account/session').then((module) => module.resumeSession());
      // Photos left in the outbox by an earlier visit go up as soon as the app starts.
      void import('../capture/uploads').then((uploads) => uploads.startUploads());
    }
    // Only at start: a sign-in later begins its session itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // While signed in: the wallet every minute and the task event stream, once the session the page
  // started with is confirmed (a session ended elsewhere is not asked for a stream).
  useEffect(() => {
    if (!signedIn) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void Promise.all([import('../account/live'), resumed.current]).then(([live]) => {
      if (!cancelled && store.get(sessionTokenAtom) !== null) stop = live.startLive();
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [signedIn]);
}

/**
 * A banner on every page when the server's payments are a sandbox at an address sellers reach:
 * nobody may think money moved, or that tokens bought here are real.
 */
function TestPaymentsBanner() {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    void import('../billing/test-payments')
      .then((module) => module.paymentsAreTests())
      .then(setShown, () => setShown(false));
  }, []);
  // The pages make room for it: Ionic's headers through the safe area, the light pages by padding.
  const measured = useCallback((banner: HTMLDivElement | null) => {
    const root = document.documentElement;
    if (!banner) {
      root.classList.remove('test-payments');
      return;
    }
    const place = () => root.style.setProperty('--test-payments-height', `${banner.offsetHeight}px`);
    place();
    root.classList.add('test-payments');
    new ResizeObserver(place).observe(banner);
  }, []);
  if (!shown) return null;
  return (
    <div ref={measured} className="test-payments-banner" role="status" data-testid="test-payments-banner">
      {t('payments.testBanner')}
    </div>
  );
}

type Showing = { shell: 'light' } | { shell: 'ionic'; App: ComponentType<ShellProps> };

/** `initial`: the shell for the address the page opened at; the Ionic app has loaded if needed. */
export function Root({ initial }: { initial: Shell }) {
  const [showing, setShowing] = useState<Showing>(() => {
    const App = loadedIonicApp();
    return initial === 'ionic' && App ? { shell: 'ionic', App } : { shell: 'light' };
  });
  useSession();

  // Each shell's page is loaded before the swap, so the one on screen stays until the other shows.
  const toIonic = useCallback(() => {
    loadIonicApp(window.location.pathname).then(
      (App) => {
        // Unless the seller has come back to a public page meanwhile.
        if (shellFor(window.location.pathname) !== 'ionic') return;
        coverPage();
        startTransition(() => setShowing({ shell: 'ionic', App }));
      },
      (error: unknown) => console.error('The app could not load', error),
    );
  }, []);
  const toLight = useCallback(() => {
    loadLightPage(window.location.pathname).then(
      () => {
        if (shellFor(window.location.pathname) !== 'light') return;
        uncoverPage();
        setShowing({ shell: 'light' });
      },
      (error: unknown) => console.error('The page could not load', error),
    );
  }, []);

  return (
    <>
      <TestPaymentsBanner />
      {showing.shell === 'ionic' ? <showing.App onLeave={toLight} /> : <LightApp onLeave={toIonic} />}
    </>
  );
}
