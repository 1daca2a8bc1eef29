// One task in the history list: thumbnails, status chip, parameter chips, created time, view.
import { IonButton } from '@ionic/react';
import { useTranslation } from 'react-i18next';
import type { Task } from '../../../contract/content';
import { BACKGROUNDS, CATEGORIES, CREATIVE_SCENES, type Background, type Category, type CreativeScene } from '../../../contract/enums';
import { formatDateTime, materialView, shownStatus, viewAction } from '../../content/rules';
import { MediaThumb } from '../../components/MediaThumb';

/** SPEC §2: six thumbnails per task (the stylesheet shows two on extra-small screens). */
const THUMBNAILS = 6;

const isOne = <T extends string>(list: readonly T[], value: unknown): value is T => list.includes(value as T);

/** The chip key of a task's status: a rejection is told apart from other failures. */
function statusKey(task: Task) {
  if (task.status === 'failed' && task.failure_type === 'manual_rejection') return 'manual_rejection' as const;
  return shownStatus(task.status);
}

export function useTaskTexts() {
  const { t } = useTranslation();
  const categoryName = (category: unknown) => (isOne<Category>(CATEGORIES, category) ? t(`task.categories.${category}.title`) : String(category));
  /** "Category · background or scene", as a parameter chip reads. */
  const entryName = (entry: Record<string, unknown>) => {
    const parts = [categoryName(entry.category)];
    if (isOne<Background>(BACKGROUNDS, entry.background)) parts.push(t(`task.backgrounds.${entry.background}`));
    if (isOne<CreativeScene>(CREATIVE_SCENES, entry.creative_scene)) parts.push(t(`task.scenes.${entry.creative_scene}`));
    return parts.join(' · ');
  };
  const viewName = (description: string) => {
    const view = materialView(description);
    return view && t(`task.views.${view}`);
  };
  return { categoryName, entryName, viewName };
}

export function TaskCard({ task, onView }: { task: Task; onView: () => void }) {
  const { t } = useTranslation();
  const { categoryName, entryName, viewName } = useTaskTexts();
  const status = statusKey(task);
  const results = task.result.map((item) => ({ id: item.id, url: item.url, poster: item.poster_url, type: item.file_type, alt: t('history.tasks.resultAlt', { name: categoryName(item.category) }) }));
  const photos = task.materials
    .filter((m) => m.file_url)
    .map((m) => ({ id: m.id, url: m.file_url!, poster: null, type: 'image/jpeg', alt: t('task.slot.photoAlt', { view: viewName(m.description) ?? '' }) }));
  const thumbs = results.length > 0 ? results : photos;
  const created = formatDateTime(task.created_at);
  const danger = status === 'manual_rejection' || status === 'failed';
  return (
    <li className="task-card" data-testid="task-card" data-status={status} data-task-id={task.id}>
      <div className="task-card__thumbs">
        {thumbs.slice(0, THUMBNAILS).map((thumb, index) => (
          <MediaThumb key={thumb.id} url={thumb.url} poster={thumb.poster} fileType={thumb.type} alt={thumb.alt} className={`task-card__thumb${index >= 2 ? ' task-card__thumb--wide' : ''}`} />
        ))}
        {thumbs.length > THUMBNAILS ? <span className="task-card__more">{t('history.tasks.more', { count: thumbs.length - THUMBNAILS })}</span> : null}
      </div>
      <div className="task-card__body">
        <div className="task-card__chips">
          <span className={`tag tag--status tag--${danger ? 'danger' : status}`} data-testid="task-status">
            {t(`history.tasks.status.${status}`)}
          </span>
          {task.parameters.map((entry, index) => (
            <span key={`${String(entry.name)}-${index}`} className="tag" data-testid="task-param">
              {entryName(entry)}
            </span>
          ))}
        </div>
        <p className="task-card__note">{t(`history.tasks.note.${status}`)}</p>
        <p className="task-card__time">
          <time dateTime={task.created_at}>{t('history.tasks.created', { date: created })}</time>
        </p>
      </div>
      <div className="task-card__actions">
        <IonButton size="small" onClick={onView} disabled={viewAction(task) === 'disabled'} aria-label={`${t('history.tasks.view')}: ${t('history.tasks.item', { date: created })}`} data-testid="task-view">
          {t('history.tasks.view')}
        </IonButton>
      </div>
    </li>
  );
}
