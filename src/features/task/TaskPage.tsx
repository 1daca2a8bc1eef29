// /task (SPEC §2, §4, §5): a new task in two steps, the photos (PhotosStep) and the styles with
// the submission (StylesStep). The page renders its draft live from IndexedDB: every photo is
// stored there at once and queued for upload, so a reload, a lost network, a closed app or
// another tab shows the same draft, and the slots follow their uploads as the outbox works.
import { useEffect, useState } from 'react';
import { arrowBackOutline } from 'ionicons/icons';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import type { ContentType } from '../../../contract/enums';
import { savePage } from '../../capture/drafts';
import { UploadBanner } from '../../capture/UploadBanner';
import { startUploads } from '../../capture/uploads';
import { useDraftPhotos } from '../../capture/useDraftPhotos';
import { useSubmitTask } from '../../capture/useSubmitTask';
import { Icon } from '../../components/Icon';
import { OutOfTokensDialog } from '../../components/OutOfTokensDialog';
import { paths } from '../../config/paths';
import { HomeLayout } from '../../layouts/HomeLayout';
import '../../lib/account-texts';
import { PhotosStep } from './PhotosStep';
import { StylesStep } from './StylesStep';
import { contentTypeOf } from './task-draft';
import { useAngleChecks } from './useAngleChecks';
import '../../capture/task-page.css';
import './task.css';

export default function TaskPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const type = contentTypeOf(useLocation().search);
  const photos = useDraftPhotos(type);
  const submission = useSubmitTask(photos);
  const { draft } = photos;
  const [requirementsOpen, setRequirementsOpen] = useState(false);
  /** The content type whose draft the page has opened: a draft with no photo starts with how to shoot. */
  const [opened, setOpened] = useState<ContentType | null>(null);
  if (type && draft && opened !== type) {
    setOpened(type);
    if (Object.keys(draft.slots).length === 0) setRequirementsOpen(true);
  }

  useEffect(() => {
    startUploads();
  }, []);
  useAngleChecks(type, draft);

  if (!type) return <Navigate to={paths.home} replace />;

  const back = () => {
    if (draft?.page === 2) void savePage(type, 1);
    else navigate(paths.home);
  };

  const title = t(`task.titles.${type}`);
  return (
    <HomeLayout title={title} testId="task-page">
      <div className="task__head">
        <button type="button" className="icon-button" onClick={back} aria-label={t('task.back')}>
          <Icon icon={arrowBackOutline} />
        </button>
        <h1>{title}</h1>
      </div>
      <UploadBanner />
      {draft?.page === 2 ? (
        <StylesStep type={type} draft={draft} submission={submission} />
      ) : draft ? (
        <PhotosStep type={type} draft={draft} photos={photos} requirementsOpen={requirementsOpen} onRequirements={setRequirementsOpen} />
      ) : null}
      {submission.outOfTokens ? <OutOfTokensDialog open {...submission.outOfTokens} onClose={submission.dismissOutOfTokens} /> : null}
    </HomeLayout>
  );
}
