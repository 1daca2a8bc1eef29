// A result at full size (SPEC §2 material history): the image, or the video playing inline, with
// a download button.
import { IonButton } from '@ionic/react';
import { useTranslation } from 'react-i18next';
import type { Asset } from '../../../contract/assets';
import { Dialog } from '../../components/Dialog';

export function PreviewDialog({ asset, onDownload, onClose }: { asset: Asset; onDownload: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const name = t(`task.categories.${asset.category}.title`);
  return (
    <Dialog open onClose={onClose} labelledBy="preview-title" closeLabel={t('history.material.preview.close')} testId="preview-dialog">
      <h2 id="preview-title">{name}</h2>
      <div className="preview__media">
        {asset.file_type.startsWith('video/') ? (
          <video src={asset.file_url} poster={asset.poster_url ?? undefined} controls autoPlay muted playsInline loop data-testid="preview-video" />
        ) : (
          <img src={asset.file_url} alt={name} data-testid="preview-image" />
        )}
      </div>
      <div className="dialog__actions">
        <IonButton fill="clear" onClick={onClose}>
          {t('history.material.preview.close')}
        </IonButton>
        <IonButton onClick={onDownload} data-testid="preview-download">
          {t('history.material.preview.download')}
        </IonButton>
      </div>
    </Dialog>
  );
}
