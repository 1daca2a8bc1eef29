// The registration dialog (SPEC §2, §3, §5): e-mail, username, password twice, and how the
// seller heard of us (free text for a promoter or "other"); then the check-your-mail step.
import { useId, useState, type FormEvent } from 'react';
import { IonButton } from '@ionic/react';
import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { CHANNELS, CHANNELS_WITH_TEXT, registerFormSchema, toRegisterRequest, type Channel } from '../../../contract/auth';
import { Dialog } from '../../components/Dialog';
import { Field, FormMessage } from '../../components/form/Field';
import { useForm } from '../../components/form/useForm';
import { accountDialogAtom } from '../../components/dialogs';
import { ApiError } from '../../lib/api-client';
import { register } from './api/register';
import { messageOf } from './errors';
import { ResendLink } from './ResendLink';

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'done'; email: string } | { kind: 'error'; message: string };

export function RegisterDialog() {
  const { t } = useTranslation();
  const open = useSetAtom(accountDialogAtom);
  const channelId = useId();
  const form = useForm(registerFormSchema, {
    email: '',
    username: '',
    password: '',
    password_confirm: '',
    channel_key: '',
    channel_extra: '',
  });
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const channel = form.values.channel_key as Channel | '';
  const needsText = channel !== '' && CHANNELS_WITH_TEXT.includes(channel);
  const channelError = form.error('channel_key');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const values = form.validate();
    if (!values || status.kind === 'sending') return;
    setStatus({ kind: 'sending' });
    try {
      const answer = await register(toRegisterRequest(values));
      // SPEC §8: anything but 201 is a failure, shown with the server's message.
      if (answer.code !== 201) throw new ApiError(answer.code, 'UNEXPECTED_CODE', answer.message);
      setStatus({ kind: 'done', email: values.email });
    } catch (error) {
      setStatus({ kind: 'error', message: t('auth.register.failed', { message: messageOf(error) }) });
    }
  };

  return (
    <Dialog open onClose={() => open(null)} labelledBy="register-title" closeLabel={t('form.close')} testId="register-dialog">
      <h2 id="register-title">{t('auth.register.title')}</h2>
      {status.kind === 'done' ? (
        <div className="auth-form">
          <FormMessage tone="success">{t('auth.register.success', { email: status.email })}</FormMessage>
          <ResendLink email={status.email} startWaiting />
          <IonButton expand="block" onClick={() => open('login')}>
            {t('auth.register.login')}
          </IonButton>
        </div>
      ) : (
        <form className="auth-form" onSubmit={submit} noValidate>
          <Field form={form} name="email" type="email" label={t('auth.register.email')} autoComplete="email" autoCapitalize="none" />
          <Field form={form} name="username" label={t('auth.register.username')} hint={t('auth.register.usernameHint')} autoComplete="username" autoCapitalize="none" />
          <Field form={form} name="password" type="password" label={t('auth.register.password')} hint={t('auth.register.passwordHint')} autoComplete="new-password" />
          <Field form={form} name="password_confirm" type="password" label={t('auth.register.confirm')} autoComplete="new-password" />
          <div className={`field${channelError ? ' field--invalid' : ''}`}>
            <label htmlFor={channelId}>{t('auth.register.channel')}</label>
            <select
              id={channelId}
              value={channel}
              onChange={(event) => form.set('channel_key', event.target.value)}
              aria-invalid={channelError ? true : undefined}
              aria-describedby={channelError ? `${channelId}-error` : undefined}
            >
              <option value="" disabled>
                {t('auth.register.channelChoose')}
              </option>
              {CHANNELS.map((key) => (
                <option key={key} value={key}>
                  {t(`auth.register.channels.${key}`)}
                </option>
              ))}
            </select>
            {channelError ? (
              <p id={`${channelId}-error`} className="field__error">
                {channelError}
              </p>
            ) : null}
          </div>
          {needsText ? (
            <Field
              form={form}
              name="channel_extra"
              label={t(channel === 'promoter' ? 'auth.register.channelExtra.promoter' : 'auth.register.channelExtra.other')}
            />
          ) : null}
          {status.kind === 'error' ? <FormMessage tone="error">{status.message}</FormMessage> : null}
          <IonButton type="submit" expand="block" disabled={status.kind === 'sending'}>
            {status.kind === 'sending' ? t('form.sending') : t('auth.register.submit')}
          </IonButton>
          <p className="form-row">
            <span>{t('auth.register.haveAccount')}</span>
            <button type="button" className="link-button" onClick={() => open('login')}>
              {t('auth.register.login')}
            </button>
          </p>
        </form>
      )}
    </Dialog>
  );
}
