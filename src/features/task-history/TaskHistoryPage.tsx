// /task/history (SPEC §2, §4): the seller's tasks, newest first, ten at a time. Each shows up to
// six thumbnails (two on an extra-small screen), its status, its styles and when it was made;
// the view button opens its results, or why its photos were rejected. The list refreshes when
// the server says a task has ended and when the network returns; offline it shows the last
// loaded list, marked as such.
import { useCallback, useEffect, useRef, useState } from 'react';
import { IonButton } from '@ionic/react';
import { refreshOutline } from 'ionicons/icons';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { pageMetaSchema } from '../../../contract/envelope';
import { taskSchema, type Task } from '../../../contract/content';
import { Icon } from '../../components/Icon';
import { showToast } from '../../components/toast';
import { paths } from '../../config/paths';
import { listTasks } from '../../content/api';
import { OfflineCopyBanner } from '../../content/OfflineCopyBanner';
import { loadList, saveList } from '../../content/lists';
import { appendPage, hasMorePages, viewAction } from '../../content/rules';
import { HomeLayout } from '../../layouts/HomeLayout';
import '../../lib/account-texts';
import { onTaskUpdated } from '../../lib/app-events';
import { onlineAtom } from '../../lib/store';
import { TaskCard } from './TaskCard';
import { TaskResultsDialog } from './TaskResultsDialog';
import { RejectionDialog } from './RejectionDialog';
import '../../content/lists.css';
import './history.css';

/** What the list keeps offline: the tasks loaded so far and the last page's meta. */
const taskListSchema = z.object({ tasks: z.array(taskSchema), meta: pageMetaSchema });
type TaskList = z.output<typeof taskListSchema>;

const LIST = 'tasks';

type Opened = { kind: 'results' | 'rejection'; task: Task } | null;

export default function TaskHistoryPage() {
  const { t } = useTranslation();
  const online = useAtomValue(onlineAtom);
  const [list, setList] = useState<TaskList | null>(null);
  const [offlineSince, setOfflineSince] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [opened, setOpened] = useState<Opened>(null);
  const request = useRef(0);

  /** Loads the first page again (the newest tasks), replacing the list. */
  const refresh = useCallback(() => {
    const id = ++request.current;
    return loadList(LIST, taskListSchema, async () => {
      const page = await listTasks(1);
      return { tasks: page.data, meta: page.meta };
    })
      .then((loaded) => {
        if (id !== request.current) return;
        setList(loaded.value);
        setOfflineSince(loaded.offline ? loaded.savedAt : null);
        setFailure(null);
      })
      .catch((error: unknown) => {
        if (id === request.current) setFailure(error instanceof Error ? error.message : String(error));
      });
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh, online]);
  useEffect(() => onTaskUpdated(() => void refresh()), [refresh]);

  const loadMore = async () => {
    if (!list || !hasMorePages(list.meta)) return;
    setLoadingMore(true);
    const id = request.current;
    try {
      const page = await listTasks(list.meta.page + 1);
      if (id !== request.current) return;
      const next = { tasks: appendPage(list.tasks, page.data), meta: page.meta };
      setList(next);
      void saveList(LIST, next);
    } catch (error) {
      showToast(error instanceof Error ? error.message : t('common.errors.internal_server_error'), 'error');
    } finally {
      setLoadingMore(false);
    }
  };

  const open = (task: Task) => {
    const action = viewAction(task);
    if (action === 'disabled') return;
    setOpened({ kind: action, task });
  };

  const title = t('routes.task_history');
  return (
    <HomeLayout title={title} testId="task-history">
      <div className="history__head">
        <h1>{title}</h1>
        <IonButton fill="clear" size="small" onClick={() => void refresh()} aria-label={t('history.refresh')} disabled={!online}>
          <Icon icon={refreshOutline} />
        </IonButton>
      </div>
      <OfflineCopyBanner savedAt={offlineSince} />
      {failure && !list ? (
        <div className="history__banner history__banner--offline" role="alert">
          <span>
            {t('history.tasks.loadFailed')} {failure}
          </span>
          <IonButton size="small" fill="outline" onClick={() => void refresh()}>
            {t('history.retryLoad')}
          </IonButton>
        </div>
      ) : null}
      {!list && !failure ? <p role="status">{t('history.tasks.loading')}</p> : null}
      {list && list.tasks.length === 0 ? (
        <div className="history__empty">
          <p>{t('history.tasks.empty')}</p>
          <IonButton routerLink={paths.home} fill="outline">
            {t('history.tasks.toWorkspace')}
          </IonButton>
        </div>
      ) : null}
      {list && list.tasks.length > 0 ? (
        <>
          <ul className="history__list" data-testid="task-list">
            {list.tasks.map((task) => (
              <TaskCard key={task.id} task={task} onView={() => open(task)} />
            ))}
          </ul>
          <div className="history__more">
            {hasMorePages(list.meta) ? (
              <IonButton fill="outline" onClick={() => void loadMore()} disabled={loadingMore || offlineSince !== null} data-testid="load-more">
                {t('history.tasks.loadMore')}
              </IonButton>
            ) : (
              <p data-testid="no-more">{t('history.tasks.noMore')}</p>
            )}
          </div>
        </>
      ) : null}
      {opened?.kind === 'results' ? <TaskResultsDialog task={opened.task} onClose={() => setOpened(null)} /> : null}
      {opened?.kind === 'rejection' ? <RejectionDialog task={opened.task} onClose={() => setOpened(null)} /> : null}
    </HomeLayout>
  );
}
