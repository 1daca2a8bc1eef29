// The slots on /task page 1 (SPEC §2 upload slots): five required views, the sole and two details,
// filled one by one (a file or the camera) or several files at once in the guided order.
import type { ChangeEvent, RefObject } from 'react';
import { IonButton } from '@ionic/react';
import { cameraOutline, informationCircleOutline } from 'ionicons/icons';
import { useTranslation } from 'react-i18next';
import { isAcceptedPhoto } from '../../../contract/capture';
import { SHOE_VIEWS, type ContentType, type ShoeView } from '../../../contract/enums';
import { assignToSlots } from '../../../contract/views';
import { heldPhoto } from '../../capture/held';
import { PhotoSlot } from '../../capture/PhotoSlot';
import type { DraftPhotos } from '../../capture/useDraftPhotos';
import { Icon } from '../../components/Icon';
import { showToast } from '../../components/toast';

export interface SlotsSectionProps {
  type: ContentType;
  photos: DraftPhotos;
  /** The hidden input that picks several files (the requirements and the camera open it too). */
  batchInput: RefObject<HTMLInputElement | null>;
  /** Opens the camera on one view, or on the guided sequence. */
  onCamera: (view?: ShoeView) => void;
  onRequirements: () => void;
}

export function SlotsSection({ type, photos, batchInput, onCamera, onRequirements }: SlotsSectionProps) {
  const { t } = useTranslation();

  const addBatch = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    if (files.some((file) => !isAcceptedPhoto(file))) showToast(t('task.errors.format'), 'error');
    const filled = SHOE_VIEWS.filter((view) => photos.draft?.slots[view] || heldPhoto(photos.held, type, view) || photos.compressing[view] !== undefined);
    const { placed, leftOver } = assignToSlots(files.filter(isAcceptedPhoto), filled);
    if (leftOver.length > 0) showToast(t('task.batchLeftOver', { count: leftOver.length }), 'info');
    for (const [view, file] of placed) await photos.addPhoto(view, file);
  };

  return (
    <>
      <div className="task__toolbar">
        <p className="task__step">{t('task.stepPhotos')}</p>
        <div className="task__tools">
          <button type="button" className="link-button" onClick={onRequirements}>
            <Icon icon={informationCircleOutline} /> {t('task.requirements.show')}
          </button>
          <IonButton size="small" onClick={() => onCamera()} data-testid="open-camera">
            <Icon icon={cameraOutline} /> {t('task.camera')}
          </IonButton>
        </div>
      </div>
      <ul className="task__slots">
        {SHOE_VIEWS.map((view) => (
          <PhotoSlot key={view} view={view} draftKey={type} photos={photos} onShoot={onCamera} movable />
        ))}
      </ul>
      <div className="task__batch">
        <IonButton fill="outline" onClick={() => batchInput.current?.click()} data-testid="batch-upload">
          {t('task.batch')}
        </IonButton>
        <input
          ref={batchInput}
          className="visually-hidden"
          type="file"
          accept="image/jpeg,image/png"
          multiple
          data-testid="batch-input"
          aria-label={t('task.batch')}
          onChange={(event) => void addBatch(event)}
        />
      </div>
    </>
  );
}
