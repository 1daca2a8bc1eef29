// Changing the password while signed in (SPEC §5): the current one, the new one twice. The
// server ends the seller's other sessions.
import { useState, type FormEvent } from 'react';
import { IonButton } from '@ionic/react';
import { useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { changePasswordSchema } from '../../../contract/auth';
import { Dialog } from '../../components/Dialog';
import { Field, FormMessage } from '../../components/form/Field';
import { useForm } from '../../components/form/useForm';
import { accountDialogAtom } from '../../components/dialogs';
import { showToast } from '../../components/toast';
import { ApiError } from '../../lib/api-client';
import { changePassword } from './api/change-password';
import { messageOf } from './errors';

export function ChangePasswordDialog() {
  const { t } = useTranslation();
  const open = useSetAtom(accountDialogAtom);
  const form = useForm(changePasswordSchema, { current_password: '', new_password: '', confirm_password: '' });
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate();
    if (!body || sending) return;
    setSending(true);
    setError(null);
    try {
      await changePassword(body);
      showToast(t('auth.change.success'), 'success');
      open(null);
    } catch (failure) {
      if (failure instanceof ApiError) form.setServerErrors(failure.fieldErrors);
      setError(t('auth.change.failed', { message: messageOf(failure) }));
      setSending(false);
    }
  };

  return (
    <Dialog open onClose={() => open(null)} labelledBy="change-password-title" closeLabel={t('form.close')} testId="change-password-dialog">
      <h2 id="change-password-title">{t('auth.change.title')}</h2>
      <form className="auth-form" onSubmit={submit} noValidate>
        <Field form={form} name="current_password" type="password" label={t('auth.change.current')} autoComplete="current-password" />
        <Field form={form} name="new_password" type="password" label={t('auth.change.newPassword')} hint={t('auth.register.passwordHint')} autoComplete="new-password" />
        <Field form={form} name="confirm_password" type="password" label={t('auth.change.confirm')} autoComplete="new-password" />
        {error ? <FormMessage tone="error">{error}</FormMessage> : null}
        <IonButton type="submit" expand="block" disabled={sending}>
          {sending ? t('form.sending') : t('auth.change.submit')}
        </IonButton>
      </form>
    </Dialog>
  );
}
