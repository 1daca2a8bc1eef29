// The app shell: Ionic, the router with every route of SPEC §2, the two drawers, and the
// dialogs and toasts that can appear over any page.
import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { IonApp, IonRouterOutlet, setupIonicReact } from '@ionic/react';
import { IonReactRouter } from '@ionic/react-router';
import { useAtomValue } from 'jotai';
import { Route } from 'react-router-dom';
import { ROUTES, type RouteDef } from '../config/paths';
import { sessionTokenAtom } from '../lib/store';
import { accountDialogAtom } from '../components/dialogs';
import { NetworkBanner } from '../components/NetworkBanner';
import { Toaster } from '../components/Toaster';
import { PublicDrawer } from '../layouts/PublicDrawer';
import LandingPage from '../features/landing/LandingPage';
import { updateOfferAtom } from '../features/updates/update-offer';
import { RequireAuth } from './RequireAuth';

setupIonicReact({ mode: 'md' });

const ShoesPage = lazy(() => import('../features/shoes/ShoesPage'));
const ContactPage = lazy(() => import('../features/contact/ContactPage'));
const FeedbackPage = lazy(() => import('../features/feedback/FeedbackPage'));
const VerifyEmailPage = lazy(() => import('../features/auth/VerifyEmailPage'));
const HomePage = lazy(() => import('../features/workspace/HomePage'));
const TaskPage = lazy(() => import('../features/task/TaskPage'));
const TaskHistoryPage = lazy(() => import('../features/task-history/TaskHistoryPage'));
const TaskRetryPage = lazy(() => import('../features/task-retry/TaskRetryPage'));
const MaterialPage = lazy(() => import('../features/material/MaterialPage'));
const ComingSoonPage = lazy(() => import('../features/coming-soon/ComingSoonPage'));
const NotFoundPage = lazy(() => import('../features/not-found/NotFoundPage'));
const UpdateDialog = lazy(() => import('../features/updates/UpdateDialog'));
const AccountDialogs = lazy(() => import('../features/auth/AccountDialogs'));
const AccountDrawer = lazy(() => import('../layouts/AccountDrawer'));

/** Screens that are complete; every other route shows its honest coming-soon state. */
const PAGES: Partial<Record<keyof typeof ROUTES, ComponentType>> = {
  landing: LandingPage,
  shoes: ShoesPage,
  contact_us: ContactPage,
  feedback: FeedbackPage,
  verify_email: VerifyEmailPage,
  home: HomePage,
  task: TaskPage,
  task_history: TaskHistoryPage,
  task_retry: TaskRetryPage,
  material: MaterialPage,
};

function element(route: RouteDef, name: keyof typeof ROUTES) {
  const Page = PAGES[name];
  const page = (
    <Suspense fallback={null}>{Page ? <Page /> : <ComingSoonPage route={route} />}</Suspense>
  );
  return route.auth ? <RequireAuth>{page}</RequireAuth> : page;
}

// Session code (and the zod schemas it parses with) loads only when a session exists.
const session = () => import('../account/session');
const signOut = () => session().then((module) => module.signOut());

export function App() {
  const signedIn = useAtomValue(sessionTokenAtom) !== null;
  const dialog = useAtomValue(accountDialogAtom);
  const updateOffer = useAtomValue(updateOfferAtom);

  useEffect(() => {
    // At start with a stored token the server confirms the session (SPEC §4).
    if (signedIn) {
      void session().then((module) => module.resumeSession());
      // Photos left in the outbox by an earlier visit go up as soon as the app starts.
      void import('../capture/uploads').then((uploads) => uploads.startUploads());
    }
    // Only at start: a sign-in later begins its session itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // While signed in: the wallet every minute and the task event stream.
  useEffect(() => {
    if (!signedIn) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import('../account/live').then((live) => {
      if (!cancelled) stop = live.startLive();
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [signedIn]);

  return (
    <IonApp>
      <IonReactRouter>
        <IonRouterOutlet>
          {(Object.keys(ROUTES) as (keyof typeof ROUTES)[]).map((name) => (
            <Route key={name} path={ROUTES[name].path} element={element(ROUTES[name], name)} />
          ))}
          <Route
            path="*"
            element={
              <Suspense fallback={null}>
                <NotFoundPage />
              </Suspense>
            }
          />
        </IonRouterOutlet>
        {signedIn ? (
          <Suspense fallback={null}>
            <AccountDrawer onSignOut={signOut} />
          </Suspense>
        ) : (
          <PublicDrawer />
        )}
        {dialog ? (
          <Suspense fallback={null}>
            <AccountDialogs />
          </Suspense>
        ) : null}
        {updateOffer ? (
          <Suspense fallback={null}>
            <UpdateDialog />
          </Suspense>
        ) : null}
      </IonReactRouter>
      <NetworkBanner />
      <Toaster />
    </IonApp>
  );
}
