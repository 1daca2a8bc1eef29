// What can appear over any page of either shell: the drawer, the account and update dialogs, the
// offline banner and the toasts. The dialogs use Ionic's buttons, so over a public page they bring
// Ionic with them when one first opens.
import { lazy, Suspense } from 'react';
import { useAtomValue } from 'jotai';
import { sessionTokenAtom, topUpPromptAtom } from '../lib/store';
import { accountDialogAtom } from '../components/dialogs';
import { NetworkBanner } from '../components/NetworkBanner';
import { Toaster } from '../components/Toaster';
import { PublicDrawer } from '../layouts/PublicDrawer';
import { updateOfferAtom } from '../features/updates/update-offer';

const ionic = () => import('./ionic-setup');
const UpdateDialog = lazy(() => ionic().then(() => import('../features/updates/UpdateDialog')));
const AccountDialogs = lazy(() => ionic().then(() => import('../features/auth/AccountDialogs')));
const AccountDrawer = lazy(() => import('../layouts/AccountDrawer'));
const TopUpPromptDialog = lazy(() => ionic().then(() => import('../features/subscription/TopUpPromptDialog')));

// Session code (and the zod schemas it parses with) loads only when a session exists.
const signOut = () => import('../account/session').then((module) => module.signOut());

export function Overlays() {
  const signedIn = useAtomValue(sessionTokenAtom) !== null;
  const dialog = useAtomValue(accountDialogAtom);
  const updateOffer = useAtomValue(updateOfferAtom);
  const topUpPrompt = useAtomValue(topUpPromptAtom);
  return (
    <>
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
      {/* One question at a time: the prompt waits for an account dialog (the first sign-in's) to close. */}
      {signedIn && topUpPrompt && !dialog ? (
        <Suspense fallback={null}>
          <TopUpPromptDialog />
        </Suspense>
      ) : null}
      {updateOffer ? (
        <Suspense fallback={null}>
          <UpdateDialog />
        </Suspense>
      ) : null}
      <NetworkBanner />
      <Toaster />
    </>
  );
}
