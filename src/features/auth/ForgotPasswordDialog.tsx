// Forgot password in three steps (SPEC §4): the e-mail and a code sent to it, the 6-digit code
// (resend after 60 s), the new password; then the sign-in dialog opens.
import { useState, type FormEvent } from 'react';
import { IonButton } from '@ionic/react';
import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { RESEND_COOLDOWN_S, codeFormSchema, forgotRequestSchema, newPasswordFormSchema } from '../../../contract/auth';
import { Dialog } from '../../components/Dialog';
import { Field, FormMessage } from '../../components/form/Field';
import { useForm } from '../../components/form/useForm';
import { accountDialogAtom } from '../../components/dialogs';
import { showToast } from '../../components/toast';
import { requestResetCode, resetPassword, verifyResetCode } from './api/forgot-password';
import { messageOf, waitOf } from './errors';
import { useCountdown } from './useCountdown';

const STEPS = ['email', 'code', 'password'] as const;
type Message = { tone: 'success' | 'error'; text: string } | null;

export function ForgotPasswordDialog() {
  const { t } = useTranslation();
  const open = useSetAtom(accountDialogAtom);
  const [step, setStep] = useState(0);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [message, setMessage] = useState<Message>(null);
  const [sending, setSending] = useState(false);
  const [remaining, startCountdown] = useCountdown();
  const emailForm = useForm(forgotRequestSchema, { email: '' });
  const codeForm = useForm(codeFormSchema, { code: '' });
  const passwordForm = useForm(newPasswordFormSchema, { new_password: '', confirm_password: '' });

  const run = async (action: () => Promise<void>, failure: 'sendFailed' | 'verifyFailed' | 'resetFailed') => {
    setSending(true);
    setMessage(null);
    try {
      await action();
    } catch (error) {
      setMessage({ tone: 'error', text: t(`auth.forgot.${failure}`, { message: messageOf(error) }) });
      const wait = waitOf(error);
      if (wait) startCountdown(wait);
    } finally {
      setSending(false);
    }
  };

  const sendCode = (to: string) =>
    run(async () => {
      await requestResetCode(to);
      setEmail(to);
      setStep(1);
      startCountdown(RESEND_COOLDOWN_S);
      setMessage({ tone: 'success', text: t('auth.forgot.codeSent') });
    }, 'sendFailed');

  const submitEmail = (event: FormEvent) => {
    event.preventDefault();
    const values = emailForm.validate();
    if (values && !sending) void sendCode(values.email);
  };

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    const values = codeForm.validate();
    if (!values || sending) return;
    void run(async () => {
      await verifyResetCode(email, values.code);
      setCode(values.code);
      setStep(2);
      setMessage({ tone: 'success', text: t('auth.forgot.codeVerified') });
    }, 'verifyFailed');
  };

  const submitPassword = (event: FormEvent) => {
    event.preventDefault();
    const values = passwordForm.validate();
    if (!values || sending) return;
    void run(async () => {
      await resetPassword({ email, code, ...values });
      showToast(t('auth.forgot.resetDone'), 'success');
      open('login');
    }, 'resetFailed');
  };

  const submitLabel = (label: string) => (sending ? t('form.sending') : label);
  return (
    <Dialog open onClose={() => open(null)} labelledBy="forgot-title" closeLabel={t('form.close')} testId="forgot-dialog">
      <h2 id="forgot-title">{t('auth.forgot.title')}</h2>
      <ol className="stepper">
        {STEPS.map((name, index) => (
          <li
            key={name}
            aria-current={index === step ? 'step' : undefined}
            className={index < step ? 'stepper__done' : undefined}
          >
            {index + 1}. {t(`auth.forgot.steps.${name}`)}
          </li>
        ))}
      </ol>
      {message ? <FormMessage tone={message.tone}>{message.text}</FormMessage> : null}
      {step === 0 ? (
        <form className="auth-form" onSubmit={submitEmail} noValidate>
          <Field form={emailForm} name="email" type="email" label={t('auth.forgot.email')} autoComplete="email" autoCapitalize="none" />
          <IonButton type="submit" expand="block" disabled={sending || remaining > 0}>
            {remaining > 0 ? t('auth.forgot.resendIn', { seconds: remaining }) : submitLabel(t('auth.forgot.sendCode'))}
          </IonButton>
        </form>
      ) : null}
      {step === 1 ? (
        <form className="auth-form" onSubmit={submitCode} noValidate>
          <Field
            form={codeForm}
            name="code"
            label={t('auth.forgot.code')}
            hint={t('auth.forgot.codeHint')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
          />
          <IonButton type="submit" expand="block" disabled={sending}>
            {submitLabel(t('auth.forgot.verify'))}
          </IonButton>
          <div className="form-row">
            <button type="button" className="link-button" onClick={() => setStep(0)}>
              {t('auth.forgot.back')}
            </button>
            <button type="button" className="link-button" disabled={sending || remaining > 0} onClick={() => void sendCode(email)}>
              {remaining > 0 ? t('auth.forgot.resendIn', { seconds: remaining }) : t('auth.forgot.resend')}
            </button>
          </div>
        </form>
      ) : null}
      {step === 2 ? (
        <form className="auth-form" onSubmit={submitPassword} noValidate>
          <Field form={passwordForm} name="new_password" type="password" label={t('auth.forgot.newPassword')} hint={t('auth.register.passwordHint')} autoComplete="new-password" />
          <Field form={passwordForm} name="confirm_password" type="password" label={t('auth.forgot.confirm')} autoComplete="new-password" />
          <IonButton type="submit" expand="block" disabled={sending}>
            {submitLabel(t('auth.forgot.reset'))}
          </IonButton>
        </form>
      ) : null}
    </Dialog>
  );
}
