// The home layout (SPEC §2): the signed-in bar with theme and language, and the account drawer.
import type { ReactNode } from 'react';
import { IonButtons, IonContent, IonHeader, IonPage, IonToolbar } from '@ionic/react';
import { LanguageSelect } from '../components/LanguageSelect';
import { ThemeToggle } from '../components/ThemeToggle';
import { usePageTitle } from '../components/usePageTitle';
import { Brand } from './PublicLayout';
import { MenuButton } from './MenuButton';
import './layout.css';

export function HomeLayout({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
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
            </div>
            <MenuButton />
          </IonButtons>
        </IonToolbar>
      </IonHeader>
      <IonContent>
        <main className="page-main">{children}</main>
      </IonContent>
    </IonPage>
  );
}
