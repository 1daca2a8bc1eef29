// Sending a task from a task page (SPEC §4 task submission, §8, §9), the same for a new task and a
// retry: the balance weighed first, the page showing the draft as sent while the server answers,
// then a refusal explained (the draft is back in IndexedDB) or the way home after its toast.
import { useState } from 'react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { refreshBalance } from '../account/session';
import { showToast } from '../components/toast';
import { paths } from '../config/paths';
import { requestWalletRefresh } from '../lib/app-events';
import { balanceAtom, store } from '../lib/store';
import { POST_SUBMIT_WAIT_MS, SUBMIT_TOAST_MS, submitTask, type SubmitInput } from './submit';
import type { DraftPhotos } from './useDraftPhotos';

/** What the page says about the outcome, in its own words. */
export interface SubmitTexts {
  queued: string;
  sent: string;
  refused: (message: string) => string;
}

export function useSubmitTask(photos: Pick<DraftPhotos, 'freeze' | 'thaw'>) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const balance = useAtomValue(balanceAtom);
  const [sending, setSending] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [outOfTokens, setOutOfTokens] = useState<{ total: number; balance: number } | null>(null);

  /** Sends the task; true once it is on its way and the page has gone home. */
  const submit = async (input: SubmitInput, texts: SubmitTexts): Promise<boolean> => {
    if (balance !== null && input.total > balance) {
      setOutOfTokens({ total: input.total, balance });
      return false;
    }
    setSending(true);
    photos.freeze(input.draft);
    const outcome = await submitTask(input);
    if (outcome.kind === 'failed' || outcome.kind === 'refused') {
      // The draft in IndexedDB is as it was, or back: the page shows what stands in the way.
      photos.thaw();
      setSending(false);
      if (outcome.kind === 'failed') {
        showToast(outcome.view ? t('task.errors.unsendable', { views: t(`task.views.${outcome.view}`) }) : t('task.errors.submitFailed'), 'error', SUBMIT_TOAST_MS);
      } else if (outcome.status === 402) {
        await refreshBalance().catch(() => {});
        setOutOfTokens({ total: input.total, balance: store.get(balanceAtom) ?? 0 });
      } else {
        showToast(texts.refused(outcome.message), 'error', SUBMIT_TOAST_MS);
      }
      return false;
    }
    if (outcome.kind === 'queued') {
      showToast(texts.queued, 'info', SUBMIT_TOAST_MS);
    } else {
      showToast(texts.sent, 'success', SUBMIT_TOAST_MS);
      setLeaving(true);
      await new Promise((resolve) => setTimeout(resolve, POST_SUBMIT_WAIT_MS));
      requestWalletRefresh();
    }
    navigate(paths.home);
    // The page stays mounted behind the workspace: it now shows the draft that started over.
    photos.thaw();
    setSending(false);
    setLeaving(false);
    return true;
  };

  return {
    submit,
    /** From the tap until the page has gone home or shown why not. */
    sending,
    /** Sent: the page waits a moment before the workspace (SPEC §9). */
    leaving,
    outOfTokens,
    dismissOutOfTokens: () => setOutOfTokens(null),
  };
}

export type TaskSubmission = ReturnType<typeof useSubmitTask>;
