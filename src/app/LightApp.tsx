// The light shell: the landing page and the static public pages under react-router, without Ionic
// (./shells). An address it does not draw goes to the Ionic app; the page on screen stays until
// that app has loaded.
import { Suspense, useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import { BrowserRouter, matchPath, Route, Routes, useLocation } from 'react-router-dom';
import { paths } from '../config/paths';
import { accountDialogAtom } from '../components/dialogs';
import { sessionTokenAtom } from '../lib/store';
import LandingPage from '../features/landing/LandingPage';
import { loadIonicApp } from './ionic-app';
import { lazyPage } from './lazy-page';
import { Overlays } from './Overlays';
import { shellFor, type ShellProps } from './shells';

const ShoesPage = lazyPage(() => import('../features/shoes/ShoesPage'));
const ContactPage = lazyPage(() => import('../features/contact/ContactPage'));
const NotFoundPage = lazyPage(() => import('../features/not-found/NotFoundPage'));

/** Loads the page at an address ahead, so that it shows at once when this shell mounts there. */
export function loadLightPage(pathname: string): Promise<unknown> {
  if (matchPath(paths.landing, pathname)) return Promise.resolve();
  if (matchPath(paths.shoes, pathname)) return ShoesPage.load();
  if (matchPath(paths.contact_us, pathname)) return ContactPage.load();
  return NotFoundPage.load();
}

function Pages({ onLeave }: ShellProps) {
  const location = useLocation();
  const ours = shellFor(location.pathname) === 'light';
  // The last address drawn here, kept on screen while the other shell gets ready.
  const [shown, setShown] = useState(location);
  if (ours && shown !== location) setShown(location);
  useEffect(() => {
    if (!ours) onLeave();
  }, [ours, onLeave]);
  return (
    <Suspense fallback={null}>
      <Routes location={ours ? location : shown}>
        <Route path={paths.landing} element={<LandingPage />} />
        <Route path={paths.shoes} element={<ShoesPage />} />
        <Route path={paths.contact_us} element={<ContactPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}

export function LightApp({ onLeave }: ShellProps) {
  const signingIn = useAtomValue(accountDialogAtom) !== null;
  const signedIn = useAtomValue(sessionTokenAtom) !== null;
  useEffect(() => {
    // Signing in leads to the workspace, and a signed-in seller is likely to go there: have the
    // Ionic app ready by then.
    if (signingIn || signedIn) loadIonicApp().catch(() => {});
  }, [signingIn, signedIn]);
  return (
    <BrowserRouter future={{ v7_startTransition: true, v7_relativeSplatPath: true }}>
      <Pages onLeave={onLeave} />
      <Overlays />
    </BrowserRouter>
  );
}
