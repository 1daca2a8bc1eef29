// The out-of-tokens dialog (SPEC §2): what the task costs against the balance, and the way to
// the top-up page. Nothing the seller chose is lost by closing it.
import { IonButton } from '@ionic/react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import '../lib/account-texts';
import { paths } from '../config/paths';
import { Dialog } from './Dialog';

export interface OutOfTokensDialogProps {
  open: boolean;
  total: number;
  balance: number;
  onClose: () => void;
}

export function OutOfTokensDialog({ open, total, balance, onClose }: OutOfTokensDialogProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Dialog open={open} onClose={onClose} labelledBy="out-of-tokens-title" closeLabel={t('form.close')} testId="out-of-tokens-dialog">
      <h2 id="out-of-tokens-title">{t('outOfTokens.title')}</h2>
      <p>{t('outOfTokens.body', { count: total, balance })}</p>
      <div className="dialog__actions">
        <IonButton fill="clear" onClick={onClose}>
          {t('outOfTokens.close')}
        </IonButton>
        <IonButton
          onClick={() => {
            onClose();
            navigate(paths.recharge);
          }}
        >
          {t('outOfTokens.recharge')}
        </IonButton>
      </div>
    </Dialog>
  );
}
