// What a page is drawn in. The public pages are drawn without Ionic: a plain element with Ionic's
// page class and a scrolling area that looks like IonContent. The Ionic app (src/app) provides
// IonPage and IonContent instead, which its router outlet needs for its page stack.
import { createContext, type ComponentType, type ReactNode } from 'react';

export interface PageProps {
  testId?: string;
  /** Called again whenever the page comes back into view (Ionic keeps visited pages mounted). */
  onEnter: () => void;
  children: ReactNode;
}

export interface Frame {
  Page: ComponentType<PageProps>;
  Content: ComponentType<{ children: ReactNode }>;
}

function LightPage({ testId, children }: PageProps) {
  return (
    <div className="ion-page" data-testid={testId}>
      {children}
    </div>
  );
}

function LightContent({ children }: { children: ReactNode }) {
  return <div className="page-scroll">{children}</div>;
}

export const LIGHT_FRAME: Frame = { Page: LightPage, Content: LightContent };

export const FrameContext = createContext<Frame>(LIGHT_FRAME);
