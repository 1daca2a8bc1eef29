// /verify-email?token=… (SPEC §2, §8): confirms the address from the link in the message; an
// invalid or expired link offers a new one, a failed activation a retry.
import '../../lib/account-texts';
import { useState, type FormEvent } from 'react';
import { IonButton } from '@ionic/react';
import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { resendVerificationSchema } from '../../../contract/auth';
import { accountDialogAtom } from '../../components/dialogs';
import { Field, FormMessage } from '../../components/form/Field';
import { useForm } from '../../components/form/useForm';
import '../../components/form/form.css';
import { PublicLayout } from '../../layouts/PublicLayout';
import { ApiError } from '../../lib/api-client';
import { verifyEmail } from './api/verify-email';
import { resendVerification } from './api/resend-verification';
import { messageOf } from './errors';
import { useOnce } from './useOnce';
import './verify-email.css';

type State =
  | { kind: 'checking' }
  | { kind: 'verified'; bonus: number }
  | { kind: 'invalid' }
  | { kind: 'failed'; message: string };

function outcome(error: unknown): State {
  return error instanceof ApiError && error.status === 400
    ? { kind: 'invalid' }
    : { kind: 'failed', message: messageOf(error) };
}

export default function VerifyEmailPage() {
  const { t } = useTranslation();
  const openDialog = useSetAtom(accountDialogAtom);
  const token = new URLSearchParams(useLocation().search).get('token') ?? '';
  const [state, setState] = useState<State>(token ? { kind: 'checking' } : { kind: 'invalid' });
  const [attempt, setAttempt] = useState(0);

  // A link is single use: it is sent to the server once per visit, however often React renders.
  useOnce(token ? `${token}#${attempt}` : null, () =>
    verifyEmail(token).then(
      (result) => setState({ kind: 'verified', bonus: result.bonus_tokens }),
      (error: unknown) => setState(outcome(error)),
    ),
  );

  return (
    <PublicLayout title={t('routes.verify_email')} testId="verify-email-page">
      <section className="verify-email" aria-live="polite">
        {state.kind === 'checking' ? (
          <p className="verify-email__checking">
            <span className="spinner" aria-hidden="true" /> {t('auth.verify.checking')}
          </p>
        ) : null}
        {state.kind === 'verified' ? (
          <>
            <h1>{t('auth.verify.successTitle')}</h1>
            <p>{t('auth.verify.success')}</p>
            {state.bonus > 0 ? <FormMessage tone="success">{t('auth.verify.bonus', { count: state.bonus })}</FormMessage> : null}
            <IonButton onClick={() => openDialog('login')}>{t('auth.verify.login')}</IonButton>
          </>
        ) : null}
        {state.kind === 'invalid' ? (
          <>
            <h1>{t('auth.verify.invalidTitle')}</h1>
            <p>{t('auth.verify.invalid')}</p>
            <ResendForm />
          </>
        ) : null}
        {state.kind === 'failed' ? (
          <>
            <h1>{t('auth.verify.failedTitle')}</h1>
            <FormMessage tone="error">{t('auth.verify.failed', { message: state.message })}</FormMessage>
            <IonButton
              onClick={() => {
                setState({ kind: 'checking' });
                setAttempt((n) => n + 1);
              }}
            >
              {t('auth.verify.retry')}
            </IonButton>
          </>
        ) : null}
      </section>
    </PublicLayout>
  );
}

function ResendForm() {
  const { t } = useTranslation();
  const form = useForm(resendVerificationSchema, { email: '' });
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const values = form.validate();
    if (!values || sending) return;
    setSending(true);
    try {
      await resendVerification(values.email);
      setResult({ ok: true, text: t('auth.resend.success') });
    } catch (error) {
      setResult({ ok: false, text: t('auth.resend.failed', { message: messageOf(error) }) });
    } finally {
      setSending(false);
    }
  };

  return (
    <form className="auth-form verify-email__form" onSubmit={submit} noValidate>
      <Field form={form} name="email" type="email" label={t('auth.verify.email')} autoComplete="email" autoCapitalize="none" />
      {result ? <FormMessage tone={result.ok ? 'success' : 'error'}>{result.text}</FormMessage> : null}
      <IonButton type="submit" disabled={sending}>
        {sending ? t('form.sending') : t('auth.resend.button')}
      </IonButton>
    </form>
  );
}
