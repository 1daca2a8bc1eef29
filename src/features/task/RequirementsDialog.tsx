// How to shoot (SPEC §2): the light, the background and the six angles, with the two ways to start.
import { IonButton } from '@ionic/react';
import { useTranslation } from 'react-i18next';
import { SHOE_VIEWS } from '../../../contract/enums';
import { ViewIllustration } from '../../capture/ViewIllustration';
import { Dialog } from '../../components/Dialog';

export interface RequirementsDialogProps {
  open: boolean;
  onClose: () => void;
  onUpload: () => void;
  onCamera: () => void;
}

export function RequirementsDialog({ open, onClose, onUpload, onCamera }: RequirementsDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} labelledBy="requirements-title" closeLabel={t('form.close')} testId="requirements-dialog">
      <h2 id="requirements-title">{t('task.requirements.title')}</h2>
      <ul className="requirements__rules">
        <li>{t('task.requirements.background')}</li>
        <li>{t('task.requirements.light')}</li>
        <li>{t('task.requirements.frame')}</li>
      </ul>
      <p>{t('task.requirements.angles')}</p>
      <ul className="requirements__angles">
        {SHOE_VIEWS.slice(0, 6).map((view) => (
          <li key={view}>
            <ViewIllustration view={view} className="requirements__drawing" />
            <span>{t(`task.views.${view}`)}</span>
          </li>
        ))}
      </ul>
      <div className="dialog__actions">
        <IonButton fill="clear" onClick={onClose}>
          {t('task.requirements.close')}
        </IonButton>
        <IonButton fill="outline" onClick={onUpload}>
          {t('task.requirements.upload')}
        </IonButton>
        <IonButton onClick={onCamera} data-testid="requirements-camera">
          {t('task.requirements.camera')}
        </IonButton>
      </div>
    </Dialog>
  );
}
