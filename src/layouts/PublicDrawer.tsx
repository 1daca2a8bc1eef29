// The signed-out drawer on phones: language, sign-in and registration (SPEC §2).
import { logInOutline, personAddOutline } from 'ionicons/icons';
import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../components/LanguageSelect';
import { accountDialogAtom } from '../components/dialogs';
import { Drawer, DrawerButton } from './Drawer';

export function PublicDrawer() {
  const { t } = useTranslation();
  const openDialog = useSetAtom(accountDialogAtom);
  return (
    <Drawer title={t('app.name')}>
      <LanguageSelect variant="menu" />
      <DrawerButton icon={logInOutline} label={t('nav.login')} onClick={() => openDialog('login')} testId="menu-login" />
      <DrawerButton
        icon={personAddOutline}
        label={t('nav.register')}
        onClick={() => openDialog('register')}
        testId="menu-register"
      />
    </Drawer>
  );
}
