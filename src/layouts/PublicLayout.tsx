// The index layout (SPEC §2): the signed-out bar — theme toggle, language menu and sign-in on
// wide screens; theme toggle and a drawer (language, sign-in, registration) on phones — the
// page, and the footer.
import type { ReactNode } from 'react';
import { IonButton, IonButtons, IonContent, IonHeader, IonPage, IonToolbar } from '@ionic/react';
import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../config/paths';
import { LanguageSelect } from '../components/LanguageSelect';
import { ShoeGlyph } from '../components/ShoeGlyph';
import { SiteFooter } from '../components/SiteFooter';
import { ThemeToggle } from '../components/ThemeToggle';
import { signInDialogOpenAtom } from '../components/dialogs';
import { usePageTitle } from '../components/usePageTitle';
import { MenuButton } from './MenuButton';
import './layout.css';

export function Brand() {
  const { t } = useTranslation();
  return (
    <Link to={paths.landing} className="brand" aria-label={t('a11y.home')}>
      <ShoeGlyph className="brand__glyph" upper="var(--ion-color-primary)" laces="var(--ion-background-color)" />
      <span className="brand__name">{t('app.name')}</span>
    </Link>
  );
}

export function PublicLayout({
  title,
  children,
  testId,
}: {
  /** The page's name for the browser tab; empty for the landing page. */
  title: string;
  children: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation();
  const openSignIn = useSetAtom(signInDialogOpenAtom);
  usePageTitle(title);
  return (
    <IonPage data-testid={testId}>
      <IonHeader>
        <IonToolbar>
          <div slot="start" className="toolbar-start">
            <Brand />
          </div>
          <IonButtons slot="end">
            <ThemeToggle />
            <div className="ion-hide-md-down toolbar-inline">
              <LanguageSelect />
              <IonButton fill="solid" color="primary" onClick={() => openSignIn(true)} data-testid="login-button">
                {t('nav.login')}
              </IonButton>
            </div>
            <MenuButton className="ion-hide-md-up" />
          </IonButtons>
        </IonToolbar>
      </IonHeader>
      <IonContent>
        <main className="page-main">{children}</main>
        <SiteFooter />
      </IonContent>
    </IonPage>
  );
}
