// Sign-in and registration are not open yet; their buttons say so plainly instead of
// pretending to work.
import { IonButton } from '@ionic/react';
import { useAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../config/paths';
import { Dialog } from './Dialog';
import { signInDialogOpenAtom } from './dialogs';

export function SignInSoonDialog() {
  const { t } = useTranslation();
  const [open, setOpen] = useAtom(signInDialogOpenAtom);
  const close = () => setOpen(false);
  return (
    <Dialog open={open} onClose={close} labelledBy="sign-in-soon-title" testId="sign-in-soon">
      <h2 id="sign-in-soon-title">{t('comingSoon.signInTitle')}</h2>
      <p>{t('comingSoon.signInBody')}</p>
      <div className="dialog__actions">
        <Link to={paths.shoes} onClick={close}>
          {t('landing.shoesCard.cta')}
        </Link>
        <IonButton onClick={close}>{t('comingSoon.close')}</IonButton>
      </div>
    </Dialog>
  );
}
