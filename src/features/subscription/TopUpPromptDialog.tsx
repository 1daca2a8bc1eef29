// The top-up-or-upgrade prompt (SPEC §2 dialogs, §4 first load): a subscriber who opens the app
// with less than one token is offered both ways on, once per load.
import '../../lib/account-texts';
import { IonButton } from '@ionic/react';
import { useAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Dialog } from '../../components/Dialog';
import { paths } from '../../config/paths';
import { topUpPromptAtom } from '../../lib/store';

export default function TopUpPromptDialog() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useAtom(topUpPromptAtom);
  const go = (to: string) => {
    setOpen(false);
    navigate(to);
  };
  return (
    <Dialog open={open} onClose={() => setOpen(false)} labelledBy="top-up-prompt-title" closeLabel={t('form.close')} testId="top-up-prompt">
      <h2 id="top-up-prompt-title">{t('subscription.prompt.title')}</h2>
      <p>{t('subscription.prompt.body')}</p>
      <div className="dialog__actions">
        <IonButton fill="clear" onClick={() => setOpen(false)}>
          {t('subscription.prompt.later')}
        </IonButton>
        <IonButton fill="outline" onClick={() => go(paths.upgrade)} data-testid="top-up-prompt-upgrade">
          {t('subscription.prompt.upgrade')}
        </IonButton>
        <IonButton onClick={() => go(paths.recharge)} data-testid="top-up-prompt-recharge">
          {t('subscription.prompt.recharge')}
        </IonButton>
      </div>
    </Dialog>
  );
}
