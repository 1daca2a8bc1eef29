// The signed-in drawer (SPEC §2 navigation): account destinations, language on phones, and
// sign-out at the end.
import {
  chatbubbleEllipsesOutline,
  gridOutline,
  imagesOutline,
  logOutOutline,
  mailOutline,
  receiptOutline,
  timeOutline,
  walletOutline,
} from 'ionicons/icons';
import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { paths } from '../config/paths';
import { LanguageSelect } from '../components/LanguageSelect';
import { clearSessionAtom } from '../lib/store';
import { Drawer, DrawerButton, DrawerLink } from './Drawer';

const LINKS = [
  { to: paths.home, icon: gridOutline, label: 'nav.home' },
  { to: paths.task_history, icon: timeOutline, label: 'nav.taskHistory' },
  { to: paths.material, icon: imagesOutline, label: 'nav.materialHistory' },
  { to: paths.subscription_manage, icon: receiptOutline, label: 'nav.subscriptionManage' },
  { to: paths.consumption_history, icon: walletOutline, label: 'nav.consumptionHistory' },
  { to: paths.feedback, icon: chatbubbleEllipsesOutline, label: 'nav.feedback' },
  { to: paths.contact_us, icon: mailOutline, label: 'nav.contactUs' },
] as const;

export function AccountDrawer() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signOut = useSetAtom(clearSessionAtom);
  return (
    <Drawer title={t('nav.account')}>
      {LINKS.map((link) => (
        <DrawerLink key={link.to} to={link.to} icon={link.icon} label={t(link.label)} />
      ))}
      <div className="ion-hide-md-up">
        <LanguageSelect variant="menu" />
      </div>
      <DrawerButton
        icon={logOutOutline}
        label={t('nav.logout')}
        onClick={() => {
          signOut();
          navigate(paths.landing, { replace: true });
        }}
      />
    </Drawer>
  );
}
