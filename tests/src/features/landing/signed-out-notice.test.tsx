// The landing page's word to a seller signed out by a password change on another device: in
// their language, with a way to sign in again, and gone once dismissed (signing in again clears
// it too: e2e/accounts.spec.ts).
import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'jotai';
import { initI18n } from '../../../../src/lib/i18n';
import { signedOutReasonAtom, store } from '../../../../src/lib/store';
import { accountDialogAtom } from '../../../../src/components/dialogs';
import { SignedOutNotice } from '../../../../src/features/landing/SignedOutNotice';

/** The notice as the landing page shows it, on the app's one store. */
function renderLanding() {
  render(
    <Provider store={store}>
      <SignedOutNotice />
    </Provider>,
  );
}

beforeEach(async () => {
  await initI18n('ru');
  store.set(signedOutReasonAtom, null);
  store.set(accountDialogAtom, null);
});

describe('the signed-out notice on the landing page', () => {
  it('is absent when nothing signed the seller out', () => {
    renderLanding();
    expect(screen.queryByTestId('signed-out-notice')).toBeNull();
  });

  it('says the password was changed on another device, and opens the sign-in', async () => {
    const user = userEvent.setup();
    store.set(signedOutReasonAtom, 'password_changed');
    renderLanding();
    const notice = screen.getByTestId('signed-out-notice');
    expect(notice.textContent).toContain('Вы вышли из аккаунта: пароль был изменён на другом устройстве.');
    await user.click(screen.getByText('Войти'));
    expect(store.get(accountDialogAtom)).toBe('login');
  });

  it('speaks the seller’s language', async () => {
    await initI18n('zh');
    store.set(signedOutReasonAtom, 'password_changed');
    renderLanding();
    expect(screen.getByTestId('signed-out-notice').textContent).toContain('您已退出登录：密码已在另一台设备上更改。');
  });

  it('goes when dismissed', async () => {
    const user = userEvent.setup();
    store.set(signedOutReasonAtom, 'password_changed');
    renderLanding();
    await user.click(screen.getByText('Понятно'));
    expect(screen.queryByTestId('signed-out-notice')).toBeNull();
  });
});
