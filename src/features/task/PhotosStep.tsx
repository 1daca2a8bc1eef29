// /task page 1 (SPEC §2, §4): the slots, the shoe's measurements and the next-page button, with
// the shooting requirements and the guided camera. Next waits while a photo is still being
// compressed or stored: until then the draft holds the slot's old photo (or none), and that is
// what page 2 would send.
import { useRef, useState } from 'react';
import { IonButton } from '@ionic/react';
import { useTranslation } from 'react-i18next';
import { SHOE_VIEWS, type ContentType, type ShoeView } from '../../../contract/enums';
import { viewsProblem } from '../../../contract/views';
import { CameraDialog } from '../../capture/CameraDialog';
import { savePage } from '../../capture/drafts';
import { PhotosInProgress } from '../../capture/PhotosInProgress';
import type { DraftPhotos } from '../../capture/useDraftPhotos';
import { showToast } from '../../components/toast';
import type { DraftRecord } from '../../offline/records';
import { RequirementsDialog } from './RequirementsDialog';
import { ShoeParamsSection } from './ShoeParamsSection';
import { SlotsSection } from './SlotsSection';

export interface PhotosStepProps {
  type: ContentType;
  draft: DraftRecord;
  photos: DraftPhotos;
  requirementsOpen: boolean;
  onRequirements: (open: boolean) => void;
}

export function PhotosStep({ type, draft, photos, requirementsOpen, onRequirements }: PhotosStepProps) {
  const { t } = useTranslation();
  const [camera, setCamera] = useState<ShoeView[] | null>(null);
  const batchInput = useRef<HTMLInputElement>(null);

  /** The six guided angles still without a photo (all six when every one has one). */
  const sequence = () => {
    const six = SHOE_VIEWS.slice(0, 6);
    const empty = six.filter((view) => !draft.slots[view]);
    return empty.length > 0 ? empty : six;
  };

  const next = async () => {
    if (photos.processing) return;
    const problem = viewsProblem(Object.keys(draft.slots) as ShoeView[]);
    if (problem) {
      showToast(t(problem === 'viewSize' ? 'task.errors.viewSize' : 'task.errors.required'), 'error');
      return;
    }
    await savePage(type, 2);
  };

  return (
    <>
      <SlotsSection
        type={type}
        photos={photos}
        batchInput={batchInput}
        onCamera={(view) => setCamera(view ? [view] : sequence())}
        onRequirements={() => onRequirements(true)}
      />
      <ShoeParamsSection draftKey={type} params={draft.shoeParams} />
      <div className="task__bottom">
        <PhotosInProgress photos={photos} />
        <IonButton expand="block" onClick={() => void next()} disabled={photos.processing} data-testid="task-next">
          {t('task.next')}
        </IonButton>
      </div>
      <RequirementsDialog
        open={requirementsOpen}
        onClose={() => onRequirements(false)}
        onUpload={() => {
          onRequirements(false);
          batchInput.current?.click();
        }}
        onCamera={() => {
          onRequirements(false);
          setCamera(sequence());
        }}
      />
      {camera ? (
        <CameraDialog
          views={camera}
          onShot={(view, photo) => photos.addPhoto(view, new File([photo], `${view}.jpg`, { type: 'image/jpeg' }))}
          onClose={() => setCamera(null)}
          onPickFiles={() => {
            setCamera(null);
            batchInput.current?.click();
          }}
        />
      ) : null}
    </>
  );
}
