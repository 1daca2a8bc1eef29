// The Ionic app: the workspace and the screens built with Ionic's components, in Ionic's router
// with its page stack (SPEC §2). The addresses the light shell draws are handed back to it
// (./shells); the dialogs and drawers over every page are in ./Overlays.
import './ionic-setup';
import { Suspense, useLayoutEffect } from 'react';
import { IonApp, IonRouterOutlet } from '@ionic/react';
import { IonReactRouter } from '@ionic/react-router';
import { Route } from 'react-router-dom';
import { ROUTES, type RouteDef, type RouteName } from '../config/paths';
import { FrameContext } from '../layouts/frame';
import { IONIC_FRAME } from './ionic-frame';
import { lazyPage, type LazyPage } from './lazy-page';
import { Overlays } from './Overlays';
import { RequireAuth } from './RequireAuth';
import { IONIC_ROUTES, ionicRouteAt, type ShellProps } from './shells';

const RechargeResultPage = lazyPage(() => import('../features/recharge/RechargeResultPage'));
const SubscriptionResultPage = lazyPage(() => import('../features/subscription/SubscriptionResultPage'));
const EditorPage = lazyPage(() => import('../features/editor/EditorPage'));

/** Screens that are complete; every other route shows its honest coming-soon state. */
const PAGES: Partial<Record<RouteName, LazyPage<object>>> = {
  feedback: lazyPage(() => import('../features/feedback/FeedbackPage')),
  verify_email: lazyPage(() => import('../features/auth/VerifyEmailPage')),
  home: lazyPage(() => import('../features/workspace/HomePage')),
  task: lazyPage(() => import('../features/task/TaskPage')),
  task_history: lazyPage(() => import('../features/task-history/TaskHistoryPage')),
  task_retry: lazyPage(() => import('../features/task-retry/TaskRetryPage')),
  material: lazyPage(() => import('../features/material/MaterialPage')),
  stores: lazyPage(() => import('../features/stores/StoresPage')),
  image_edit: EditorPage,
  editor: EditorPage,
  recharge: lazyPage(() => import('../features/recharge/RechargePage')),
  recharge_result: RechargeResultPage,
  recharge_success: RechargeResultPage,
  recharge_cancel: RechargeResultPage,
  consumption_history: lazyPage(() => import('../features/consumption/ConsumptionHistoryPage')),
  subscription: lazyPage(() => import('../features/subscription/PlansPage')),
  local_subscription: lazyPage(() => import('../features/subscription/LocalCheckoutPage')),
  subscription_result: SubscriptionResultPage,
  subscription_success: SubscriptionResultPage,
  subscription_cancel: SubscriptionResultPage,
  subscription_manage: lazyPage(() => import('../features/subscription/ManagePage')),
  upgrade: lazyPage(() => import('../features/subscription/UpgradePage')),
};
const ComingSoonPage = lazyPage(() => import('../features/coming-soon/ComingSoonPage'));

/** Loads the page at an address ahead, so that it shows at once when the app mounts there. */
export function loadPage(pathname: string): Promise<unknown> {
  const name = ionicRouteAt(pathname);
  return name === undefined ? Promise.resolve() : (PAGES[name] ?? ComingSoonPage).load();
}

function element(route: RouteDef, name: RouteName) {
  const Page = PAGES[name];
  const page = (
    <Suspense fallback={null}>{Page ? <Page /> : <ComingSoonPage route={route} />}</Suspense>
  );
  return route.auth ? <RequireAuth>{page}</RequireAuth> : page;
}

/** An address the light shell draws: hand over before anything is painted here. */
function Leave({ onLeave }: ShellProps) {
  useLayoutEffect(onLeave, [onLeave]);
  return null;
}

export function App({ onLeave }: ShellProps) {
  return (
    <IonApp>
      <FrameContext.Provider value={IONIC_FRAME}>
        <IonReactRouter>
          <IonRouterOutlet>
            {IONIC_ROUTES.map((name) => (
              <Route key={name} path={ROUTES[name].path} element={element(ROUTES[name], name)} />
            ))}
            <Route path="*" element={<Leave onLeave={onLeave} />} />
          </IonRouterOutlet>
          <Overlays />
        </IonReactRouter>
      </FrameContext.Provider>
    </IonApp>
  );
}
