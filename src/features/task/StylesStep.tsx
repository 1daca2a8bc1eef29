// /task page 2 (SPEC §2, §4): the styles from the server's catalogue, the confirmation with each
// output's price, and the submission, which goes through the outbox so a task added on a train is
// sent once, by itself, when the network returns.
import { useState } from 'react';
import { IonButton } from '@ionic/react';
import { cloudOfflineOutline } from 'ionicons/icons';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { SHOE_VIEWS, type ContentType } from '../../../contract/enums';
import { selectionProblem, toContentConfig, withoutOutputs, type PlannedOutput, type Selection } from '../../../contract/selection';
import { refreshBalance } from '../../account/session';
import { saveStyles } from '../../capture/drafts';
import { priceTask } from '../../capture/prices';
import { UnsendablePhotos, unsendableViews } from '../../capture/UnsendablePhotos';
import { useCatalogue } from '../../capture/useCatalogue';
import type { TaskSubmission } from '../../capture/useSubmitTask';
import { Icon } from '../../components/Icon';
import { showToast } from '../../components/toast';
import { balanceAtom } from '../../lib/store';
import type { DraftRecord } from '../../offline/records';
import { ConfirmDialog } from './ConfirmDialog';
import { StylesSection } from './StylesSection';
import { selectionOf, shoeParamsPayload } from './task-draft';

export interface StylesStepProps {
  type: ContentType;
  draft: DraftRecord;
  submission: TaskSubmission;
}

export function StylesStep({ type, draft, submission }: StylesStepProps) {
  const { t } = useTranslation();
  const { catalogue, offers, retry } = useCatalogue();
  const balance = useAtomValue(balanceAtom);
  const [confirming, setConfirming] = useState(false);
  /** Outputs the seller took out in the confirmation. */
  const [removed, setRemoved] = useState<PlannedOutput[]>([]);

  const selection = selectionOf(draft.styles);
  const views = SHOE_VIEWS.filter((view) => draft.slots[view]);
  const unsendable = unsendableViews(draft);
  const config = withoutOutputs(toContentConfig(selection, type, shoeParamsPayload(draft.shoeParams)), removed, views);
  const priced = priceTask(config, views, offers);
  const change = (update: (selection: Selection) => Selection) => void saveStyles(type, (stored) => update(selectionOf(stored)));

  const addTask = () => {
    const problem = selectionProblem(selection, type);
    if (problem) {
      showToast(t(`task.errors.${problem}`), 'error');
      return;
    }
    if (unsendable.length > 0) return;
    setRemoved([]);
    setConfirming(true);
    if (navigator.onLine) void refreshBalance().catch(() => {});
  };

  const confirm = async () => {
    const names = { type: t(`workspace.tiles.${type}.title`), count: priced.total };
    await submission.submit(
      { draft: { ...draft, styles: selection }, config, total: priced.total, outputs: priced.outputs.length },
      { queued: t('task.submit.queued', names), sent: t('task.submit.created', names), refused: (message) => message },
    );
    setConfirming(false);
  };

  return (
    <>
      {catalogue.state === 'loading' ? <p role="status">{t('task.styles.loading')}</p> : null}
      {catalogue.state === 'failed' ? (
        <div className="task__banner task__banner--offline" role="alert">
          <span>
            {t('task.styles.loadFailed')} {catalogue.message}
          </span>
          <IonButton size="small" fill="outline" onClick={retry}>
            {t('task.styles.retry')}
          </IonButton>
        </div>
      ) : null}
      {catalogue.state === 'ready' ? (
        <>
          {catalogue.offline ? (
            <p className="task__banner task__banner--offline" role="status">
              <Icon icon={cloudOfflineOutline} /> {t('task.styles.offline')}
            </p>
          ) : null}
          <StylesSection type={type} selection={selection} offers={offers} onChange={change} onPrompt={(prompt) => change((current) => ({ ...current, prompt }))} />
        </>
      ) : null}
      {submission.leaving ? (
        <p className="task__banner" role="status" data-testid="task-leaving">
          {t('task.submit.leaving')}
        </p>
      ) : null}
      <UnsendablePhotos views={unsendable} />
      <div className="task__bottom">
        <IonButton
          expand="block"
          onClick={addTask}
          disabled={confirming || submission.sending || catalogue.state !== 'ready' || unsendable.length > 0}
          data-testid="task-add"
        >
          {t('task.addTask')}
        </IonButton>
      </div>
      <ConfirmDialog
        open={confirming && !submission.leaving}
        outputs={priced.outputs}
        total={priced.total}
        balance={balance}
        busy={submission.sending}
        onRemove={(output) => setRemoved((list) => [...list, output])}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void confirm()}
      />
    </>
  );
}
