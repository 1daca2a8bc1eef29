// The home layout (SPEC §2): the signed-in bar with theme and language, and the account drawer.
import type { ReactNode } from 'react';
import { LanguageSelect } from '../components/LanguageSelect';
import { AppPage } from './AppPage';
import { MenuButton } from './MenuButton';

export function HomeLayout({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <AppPage
      title={title}
      testId={testId}
      toolbarEnd={
        <>
          <div className="ion-hide-md-down toolbar-inline">
            <LanguageSelect />
          </div>
          <MenuButton />
        </>
      }
    >
      {children}
    </AppPage>
  );
}
