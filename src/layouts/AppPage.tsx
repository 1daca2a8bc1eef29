// The frame of every page: an Ionic page with the bar (brand, theme toggle, the layout's own
// controls) and the scrolling content. The index and home layouts differ only in what they add.
import type { ReactNode } from 'react';
import { IonButtons, IonContent, IonHeader, IonPage, IonToolbar } from '@ionic/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../config/paths';
import { ShoeGlyph } from '../components/ShoeGlyph';
import { ThemeToggle } from '../components/ThemeToggle';
import { usePageTitle } from '../components/usePageTitle';
import './layout.css';

function Brand() {
  const { t } = useTranslation();
  return (
    <Link to={paths.landing} className="brand" aria-label={t('a11y.home')}>
      <ShoeGlyph className="brand__glyph" upper="var(--ion-color-primary)" laces="var(--ion-background-color)" />
      <span className="brand__name">{t('app.name')}</span>
    </Link>
  );
}

export interface AppPageProps {
  /** The page's name for the browser tab; empty for the landing page. */
  title: string;
  testId?: string;
  /** Controls after the theme toggle at the end of the bar. */
  toolbarEnd: ReactNode;
  /** Shown after the page's content, inside the scrolling area. */
  footer?: ReactNode;
  children: ReactNode;
}

export function AppPage({ title, testId, toolbarEnd, footer, children }: AppPageProps) {
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
            {toolbarEnd}
          </IonButtons>
        </IonToolbar>
      </IonHeader>
      <IonContent>
        <main className="page-main">{children}</main>
        {footer}
      </IonContent>
    </IonPage>
  );
}
