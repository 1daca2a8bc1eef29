// The signed-in drawer (SPEC §2 navigation): who is signed in, their plan, balance and the soonest
// date some of it lapses, recharge and upgrade-or-subscribe buttons, every account destination, and sign-out at the end.
import '../lib/account-texts';
import {
  chatbubbleEllipsesOutline,
  gridOutline,
  imagesOutline,
  keyOutline,
  logOutOutline,
  mailOutline,
  receiptOutline,
  storefrontOutline,
  timeOutline,
  walletOutline,
} from 'ionicons/icons';
import { useEffect } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../config/paths';
import { LanguageSelect } from '../components/LanguageSelect';
import { accountDialogAtom, drawerOpenAtom } from '../components/dialogs';
import { isLiveSubscription } from '../../contract/billing';
import { formatDateTime } from '../content/rules';
import { balanceAtom, balanceExpiryAtom, subscriptionAtom, userAtom } from '../lib/store';
import { Drawer, DrawerButton, DrawerLink } from './Drawer';

const LINKS = [
  { to: paths.home, icon: gridOutline, label: 'nav.home' },
  { to: paths.task_history, icon: timeOutline, label: 'nav.taskHistory' },
  { to: paths.material, icon: imagesOutline, label: 'nav.materialHistory' },
  { to: paths.stores, icon: storefrontOutline, label: 'nav.stores' },
  { to: paths.subscription_manage, icon: receiptOutline, label: 'nav.subscriptionManage' },
  { to: paths.consumption_history, icon: walletOutline, label: 'nav.consumptionHistory' },
] as const;

function Wallet() {
  const { t } = useTranslation();
  const user = useAtomValue(userAtom);
  const balance = useAtomValue(balanceAtom);
  const expiry = useAtomValue(balanceExpiryAtom);
  const subscription = useAtomValue(subscriptionAtom);
  const live = isLiveSubscription(subscription) ? subscription : null;
  const setOpen = useSetAtom(drawerOpenAtom);
  const closeDrawer = () => setOpen(false);
  useEffect(() => {
    // The drawer shows the balance and the plan as the server has them now (loaded on demand, off the start-up path).
    void import('../account/session')
      .then((session) => Promise.all([session.refreshBalance(), session.refreshSubscription()]))
      .catch(() => {});
  }, []);
  return (
    <section className="drawer__account" aria-label={t('nav.account')} data-testid="drawer-account">
      <p className="drawer__username" data-testid="drawer-username">
        {user?.username}
      </p>
      <dl className="drawer__facts">
        <div>
          <dt>{t('wallet.plan')}</dt>
          <dd data-testid="drawer-plan">{live ? live.plan.name : t('wallet.noPlan')}</dd>
        </div>
        <div>
          <dt>{t('wallet.balance')}</dt>
          <dd data-testid="drawer-balance">
            {balance === null ? t('wallet.unknown') : t('wallet.tokens', { count: balance })}
          </dd>
        </div>
        <div>
          <dt>{t('wallet.expires')}</dt>
          {/* The soonest date on which tokens of the balance lapse (a paid period's end). */}
          <dd data-testid="drawer-expiry">{expiry ? <time dateTime={expiry}>{formatDateTime(expiry)}</time> : t('wallet.noExpiry')}</dd>
        </div>
      </dl>
      <div className="drawer__actions">
        <Link className="drawer__action drawer__action--primary" to={paths.recharge} onClick={closeDrawer}>
          {t('wallet.recharge')}
        </Link>
        <Link className="drawer__action" to={live ? paths.upgrade : paths.subscription} onClick={closeDrawer} data-testid="drawer-plan-action">
          {t(live ? 'wallet.upgrade' : 'wallet.subscribe')}
        </Link>
      </div>
    </section>
  );
}

export default function AccountDrawer({ onSignOut }: { onSignOut: () => Promise<void> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const openDialog = useSetAtom(accountDialogAtom);
  return (
    <Drawer title={t('nav.account')}>
      <Wallet />
      {LINKS.map((link) => (
        <DrawerLink key={link.to} to={link.to} icon={link.icon} label={t(link.label)} />
      ))}
      <div className="ion-hide-md-up">
        <LanguageSelect variant="menu" />
      </div>
      <DrawerLink to={paths.feedback} icon={chatbubbleEllipsesOutline} label={t('nav.feedback')} />
      <DrawerButton
        icon={keyOutline}
        label={t('nav.changePassword')}
        onClick={() => openDialog('change-password')}
        testId="menu-change-password"
      />
      <DrawerLink to={paths.contact_us} icon={mailOutline} label={t('nav.contactUs')} />
      <DrawerButton
        icon={logOutOutline}
        label={t('nav.logout')}
        testId="menu-logout"
        onClick={() => {
          void onSignOut().then(() => navigate(paths.landing, { replace: true }));
        }}
      />
    </Drawer>
  );
}
