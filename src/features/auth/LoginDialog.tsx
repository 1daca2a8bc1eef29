// The sign-in dialog (SPEC §2, §4, §5): e-mail or username, password, remember-me; after
// success a 1.5 s pause, then the workspace.
import { useState, type FormEvent } from 'react';
import { IonButton } from '@ionic/react';
import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { loginRequestSchema } from '../../../contract/auth';
import { Dialog } from '../../components/Dialog';
import { Field, FormMessage } from '../../components/form/Field';
import { useForm } from '../../components/form/useForm';
import { accountDialogAtom } from '../../components/dialogs';
import { paths } from '../../config/paths';
import { beginSession } from '../../account/session';
import { getMe } from '../../account/api/get-me';
import { login } from './api/login';
import { codeOf, messageOf, wait } from './errors';
import { ResendLink } from './ResendLink';
import { shouldAskUserInfo } from './user-info';

export const LOGIN_SUCCESS_WAIT_MS = 1_500;

type Status =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'success' }
  | { kind: 'error'; message: string; unverified: boolean };

export function LoginDialog() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const open = useSetAtom(accountDialogAtom);
  const form = useForm(loginRequestSchema, { username_or_email: '', password: '', remember_me: false as boolean });
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const busy = status.kind === 'sending' || status.kind === 'success';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate();
    if (!body || busy) return;
    setStatus({ kind: 'sending' });
    try {
      const token = await login(body);
      const user = await getMe(token.access_token);
      await beginSession(token, user);
      setStatus({ kind: 'success' });
      await wait(LOGIN_SUCCESS_WAIT_MS);
      open(shouldAskUserInfo(user.id) ? 'user-info' : null);
      navigate(paths.home);
    } catch (error) {
      setStatus({
        kind: 'error',
        message: t('auth.login.failed', { message: messageOf(error) }),
        unverified: codeOf(error) === 'EMAIL_NOT_VERIFIED',
      });
    }
  };

  const identifier = String(form.values.username_or_email);
  return (
    <Dialog open onClose={() => !busy && open(null)} labelledBy="login-title" closeLabel={t('form.close')} testId="login-dialog">
      <h2 id="login-title">{t('auth.login.title')}</h2>
      <form className="auth-form" onSubmit={submit} noValidate>
        <Field form={form} name="username_or_email" label={t('auth.login.identifier')} autoComplete="username" autoCapitalize="none" />
        <Field form={form} name="password" type="password" label={t('auth.login.password')} autoComplete="current-password" />
        <div className="form-row">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={Boolean(form.values.remember_me)}
              onChange={(event) => form.set('remember_me', event.target.checked)}
            />
            {t('auth.login.remember')}
          </label>
          <button type="button" className="link-button" onClick={() => open('forgot')}>
            {t('auth.login.forgot')}
          </button>
        </div>
        {status.kind === 'success' ? <FormMessage tone="success">{t('auth.login.success')}</FormMessage> : null}
        {status.kind === 'error' ? <FormMessage tone="error">{status.message}</FormMessage> : null}
        {status.kind === 'error' && status.unverified && identifier.includes('@') ? <ResendLink email={identifier} /> : null}
        <IonButton type="submit" expand="block" disabled={busy}>
          {status.kind === 'sending' ? t('form.sending') : t('auth.login.submit')}
        </IonButton>
        <p className="form-row">
          <span>{t('auth.login.noAccount')}</span>
          <button type="button" className="link-button" onClick={() => open('register')}>
            {t('auth.login.register')}
          </button>
        </p>
      </form>
    </Dialog>
  );
}
