// The app shell: Ionic, the router with every route of SPEC §2, the two drawers, and the
// dialogs that can open over any page.
import { lazy, Suspense, type ComponentType } from 'react';
import { IonApp, IonRouterOutlet, setupIonicReact } from '@ionic/react';
import { IonReactRouter } from '@ionic/react-router';
import { useAtomValue } from 'jotai';
import { Route } from 'react-router-dom';
import { ROUTES, type RouteDef } from '../config/paths';
import { sessionTokenAtom } from '../lib/store';
import { NetworkBanner } from '../components/NetworkBanner';
import { SignInSoonDialog } from '../components/SignInSoonDialog';
import { AccountDrawer } from '../layouts/AccountDrawer';
import { PublicDrawer } from '../layouts/PublicDrawer';
import LandingPage from '../features/landing/LandingPage';
import { RequireAuth } from './RequireAuth';

setupIonicReact({ mode: 'md' });

const ShoesPage = lazy(() => import('../features/shoes/ShoesPage'));
const ContactPage = lazy(() => import('../features/contact/ContactPage'));
const ComingSoonPage = lazy(() => import('../features/coming-soon/ComingSoonPage'));
const NotFoundPage = lazy(() => import('../features/not-found/NotFoundPage'));
const UpdateDialog = lazy(() => import('../features/updates/UpdateDialog'));


/** Screens that are complete; every other route shows its honest coming-soon state. */
const PAGES: Partial<Record<keyof typeof ROUTES, ComponentType>> = {
  landing: LandingPage,
  shoes: ShoesPage,
  contact_us: ContactPage,
};

function element(route: RouteDef, name: keyof typeof ROUTES) {
  const Page = PAGES[name];
  const page = (
    <Suspense fallback={null}>{Page ? <Page /> : <ComingSoonPage route={route} />}</Suspense>
  );
  return route.auth ? <RequireAuth>{page}</RequireAuth> : page;
}

export function App() {
  const signedIn = useAtomValue(sessionTokenAtom) !== null;
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
        {signedIn ? <AccountDrawer /> : <PublicDrawer />}
        <SignInSoonDialog />
        <Suspense fallback={null}>
          <UpdateDialog />
        </Suspense>
      </IonReactRouter>
      <NetworkBanner />
    </IonApp>
  );
}
