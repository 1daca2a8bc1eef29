// The index layout (SPEC §2): the signed-out bar — theme toggle, language menu and sign-in on
// wide screens; theme toggle and a drawer (language, sign-in, registration) on phones — the
// page, and the footer.
import type { ReactNode } from 'react';
import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/Button';
import { LanguageSelect } from '../components/LanguageSelect';
import { SiteFooter } from '../components/SiteFooter';
import { accountDialogAtom } from '../components/dialogs';
import { AppPage } from './AppPage';
import { MenuButton } from './MenuButton';

export function PublicLayout({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  const { t } = useTranslation();
  const openDialog = useSetAtom(accountDialogAtom);
  return (
    <AppPage
      title={title}
      testId={testId}
      footer={<SiteFooter />}
      toolbarEnd={
        <>
          <div className="ion-hide-md-down toolbar-inline">
            <LanguageSelect />
            <Button onClick={() => openDialog('login')} testId="login-button">
              {t('nav.login')}
            </Button>
          </div>
          <MenuButton className="ion-hide-md-up" />
        </>
      }
    >
      {children}
    </AppPage>
  );
}
