// The user-info dialog (SPEC §2, §3, §5): phone, contact person, number of stores, region. As
// SPEC says, submitting only confirms and closes; nothing is sent.
import { useState, type FormEvent } from 'react';
import { IonButton } from '@ionic/react';
import { useAtomValue, useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { userInfoFormSchema } from '../../../contract/auth';
import { Dialog } from '../../components/Dialog';
import { Field, FormMessage } from '../../components/form/Field';
import { useForm } from '../../components/form/useForm';
import { accountDialogAtom } from '../../components/dialogs';
import { userAtom } from '../../lib/store';
import { markUserInfoAsked } from './user-info';
import { wait } from './errors';

const CLOSE_AFTER_MS = 1_500;

export function UserInfoDialog() {
  const { t } = useTranslation();
  const open = useSetAtom(accountDialogAtom);
  const user = useAtomValue(userAtom);
  const form = useForm(userInfoFormSchema, { phone: '', contact_person: '', store_count: '', area: '' });
  const [done, setDone] = useState(false);

  const close = () => {
    if (user) markUserInfoAsked(user.id);
    open(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.validate() || done) return;
    setDone(true);
    await wait(CLOSE_AFTER_MS);
    close();
  };

  return (
    <Dialog open onClose={close} labelledBy="user-info-title" closeLabel={t('form.close')} testId="user-info-dialog">
      <h2 id="user-info-title">{t('auth.userInfo.title')}</h2>
      <p>{t('auth.userInfo.lead')}</p>
      <form className="auth-form" onSubmit={submit} noValidate>
        <Field form={form} name="phone" type="tel" label={t('auth.userInfo.phone')} autoComplete="tel" />
        <Field form={form} name="contact_person" label={t('auth.userInfo.contact')} autoComplete="name" />
        <Field form={form} name="store_count" label={t('auth.userInfo.stores')} inputMode="numeric" />
        <Field form={form} name="area" label={t('auth.userInfo.area')} autoComplete="address-level1" />
        {done ? <FormMessage tone="success">{t('auth.userInfo.success')}</FormMessage> : null}
        <div className="dialog__actions">
          <IonButton fill="clear" onClick={close}>
            {t('auth.userInfo.later')}
          </IonButton>
          <IonButton type="submit" disabled={done}>
            {t('auth.userInfo.submit')}
          </IonButton>
        </div>
      </form>
    </Dialog>
  );
}
