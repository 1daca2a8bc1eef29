// The frame of every page: a link past the bar for keyboard users, the bar (brand, theme toggle,
// the layout's own controls) and the scrolling content. The index and home layouts differ only in
// what they add. The bar is drawn as Ionic's md toolbar without Ionic, so the same markup serves
// the public pages and the Ionic app; only the page and its scrolling area come from the frame
// (./frame).
import { useContext, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../config/paths';
import { ShoeGlyph } from '../components/ShoeGlyph';
import { ThemeToggle } from '../components/ThemeToggle';
import { usePageTitle } from '../components/usePageTitle';
import { FrameContext } from './frame';
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
  const { t } = useTranslation();
  const { Page, Content } = useContext(FrameContext);
  const applyTitle = usePageTitle(title);
  const mainId = useId();
  const main = useRef<HTMLElement>(null);
  return (
    <Page testId={testId} onEnter={applyTitle}>
      {/* First in the tab order, shown when focused. Focus moves in script: Ionic keeps earlier
          pages mounted, and a fragment in the address would be a navigation to its router. */}
      <a
        className="skip-link"
        href={`#${mainId}`}
        onClick={(event) => {
          event.preventDefault();
          main.current?.focus();
        }}
      >
        {t('a11y.skipToContent')}
      </a>
      <header className="app-header">
        <div className="app-toolbar">
          <div className="toolbar-start">
            <Brand />
          </div>
          <div className="toolbar-buttons">
            <ThemeToggle />
            {toolbarEnd}
          </div>
        </div>
      </header>
      <Content>
        <main id={mainId} ref={main} tabIndex={-1} className="page-main">
          {children}
        </main>
        {footer}
      </Content>
    </Page>
  );
}
