// The link past the bar (issue 17): first in the tab order of every page, in the seller's language,
// and it takes keyboard focus to the page's content, past the bar's links and buttons.
import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'jotai';
import { MemoryRouter } from 'react-router-dom';
import { initI18n } from '../../../src/lib/i18n';
import { store } from '../../../src/lib/store';
import { HomeLayout } from '../../../src/layouts/HomeLayout';
import { PublicLayout } from '../../../src/layouts/PublicLayout';

const TABBABLE = 'a[href], button:not([disabled]), select, input, textarea, [tabindex]:not([tabindex="-1"])';
const tabOrder = () => [...document.querySelectorAll<HTMLElement>(TABBABLE)];

function renderPage(Layout: typeof PublicLayout) {
  render(
    <Provider store={store}>
      <MemoryRouter future={{ v7_startTransition: true, v7_relativeSplatPath: true }}>
        <Layout title="Страница" testId="page">
          <button type="button">Действие страницы</button>
        </Layout>
      </MemoryRouter>
    </Provider>,
  );
}

beforeEach(async () => {
  await initI18n('ru');
});

describe.each([
  ['the public layout', PublicLayout],
  ['the home layout', HomeLayout],
])('the skip link of %s', (_name, Layout) => {
  it('comes first in the tab order, before the bar', () => {
    renderPage(Layout);
    const order = tabOrder();
    expect(order[0]).toBe(screen.getByRole('link', { name: 'Перейти к содержимому' }));
    expect(order.indexOf(screen.getByRole('link', { name: 'SoleStudio — на главную' }))).toBeGreaterThan(0);
  });

  it('moves focus to the page’s content, so the next Tab reaches the page and not the bar', () => {
    renderPage(Layout);
    fireEvent.click(screen.getByRole('link', { name: 'Перейти к содержимому' }));
    const main = screen.getByRole('main');
    expect(document.activeElement).toBe(main);
    const order = tabOrder();
    const next = order.find((element) => main.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING);
    expect(next).toBe(screen.getByRole('button', { name: 'Действие страницы' }));
  });
});

describe('the skip link’s words', () => {
  it.each([
    ['en', 'Skip to content'],
    ['zh', '跳到正文'],
  ])('are in the seller’s language (%s)', async (locale, text) => {
    await initI18n(locale as 'en' | 'zh');
    renderPage(PublicLayout);
    expect(tabOrder()[0]?.textContent).toBe(text);
  });
});
