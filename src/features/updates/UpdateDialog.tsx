// The update dialog (SPEC §2, §4): the new version's changelog in the seller's language, "update"
// and — unless the update is forced — "later".
import { useState } from 'react';
import { IonButton } from '@ionic/react';
import { useAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';
import { currentLocale } from '../../lib/i18n';
import { updateOfferAtom, updates } from './updates';
import './update-dialog.css';

export default function UpdateDialog() {
  const { t } = useTranslation();
  const [offer, setOffer] = useAtom(updateOfferAtom);
  const [applying, setApplying] = useState(false);
  const forced = offer?.forceUpdate ?? false;
  const changelog = offer?.changelog?.[currentLocale()];

  const later = () => {
    if (!offer || forced) return;
    updates().postpone(offer.version);
    setOffer(null);
  };

  return (
    <Dialog
      open={offer !== null}
      onClose={later}
      dismissible={!forced}
      labelledBy="update-title"
      testId="update-dialog"
    >
      <h2 id="update-title">{t('update.title', { version: offer?.version ?? '' })}</h2>
      {changelog ? (
        <>
          <h3 className="update-dialog__subtitle">{t('update.whatsNew')}</h3>
          <p className="update-dialog__changelog" data-testid="update-changelog">
            {changelog}
          </p>
        </>
      ) : null}
      {forced ? <p className="update-dialog__forced">{t('update.forced')}</p> : null}
      <div className="dialog__actions" aria-busy={applying}>
        {forced ? null : (
          <IonButton fill="clear" onClick={later} disabled={applying} data-testid="update-later">
            {t('update.later')}
          </IonButton>
        )}
        <IonButton
          onClick={() => {
            setApplying(true);
            void updates().apply();
          }}
          disabled={applying}
          data-testid="update-now"
        >
          {applying ? t('update.updating') : t('update.now')}
        </IonButton>
      </div>
    </Dialog>
  );
}
