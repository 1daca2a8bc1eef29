// A task's results one at a time (SPEC §4 task viewing): images only once the task has
// completed or partially completed; videos play inline. Arrow keys, the buttons and a swipe move
// between them; outputs that could not be made say why.
import { useRef, useState, type TouchEvent } from 'react';
import { IonButton } from '@ionic/react';
import { chevronBackOutline, chevronForwardOutline } from 'ionicons/icons';
import { useTranslation } from 'react-i18next';
import type { Task } from '../../../contract/content';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { showsResults } from '../../content/rules';
import { useTaskTexts } from './TaskCard';

const SWIPE_PX = 40;

export function TaskResultsDialog({ task, onClose }: { task: Task; onClose: () => void }) {
  const { t } = useTranslation();
  const { categoryName } = useTaskTexts();
  const [index, setIndex] = useState(0);
  const touchX = useRef<number | null>(null);
  const items = showsResults(task.status) ? task.result : [];
  const current = items[Math.min(index, items.length - 1)];
  const failed = task.outputs.filter((output) => output.status === 'failed' && output.error);

  const go = (step: number) => setIndex((i) => (items.length === 0 ? 0 : (i + step + items.length) % items.length));
  const swipeEnd = (event: TouchEvent) => {
    const start = touchX.current;
    touchX.current = null;
    const end = event.changedTouches[0]?.clientX;
    if (start === null || end === undefined || Math.abs(end - start) < SWIPE_PX) return;
    go(end < start ? 1 : -1);
  };

  return (
    <Dialog open onClose={onClose} labelledBy="results-title" closeLabel={t('history.results.close')} testId="results-dialog">
      <h2 id="results-title">{t('history.results.title')}</h2>
      {!showsResults(task.status) ? <p role="status">{t('history.results.pending')}</p> : null}
      {showsResults(task.status) && items.length === 0 ? <p>{t('history.results.none')}</p> : null}
      {current ? (
        <div
          className="carousel"
          role="group"
          aria-roledescription="carousel"
          aria-label={t('history.results.title')}
          tabIndex={0}
          onKeyDown={(event) => {
            if (event.key === 'ArrowRight') go(1);
            if (event.key === 'ArrowLeft') go(-1);
          }}
          onTouchStart={(event) => (touchX.current = event.touches[0]?.clientX ?? null)}
          onTouchEnd={swipeEnd}
        >
          <figure className="carousel__slide" aria-live="polite" data-testid="carousel-slide">
            {current.file_type.startsWith('video/') ? (
              <video key={current.id} src={current.url} poster={current.poster_url ?? undefined} controls playsInline className="carousel__media" data-testid="carousel-video" />
            ) : (
              <img key={current.id} src={current.url} alt={categoryName(current.category)} className="carousel__media" data-testid="carousel-image" />
            )}
            <figcaption>
              {categoryName(current.category)} · {t('history.results.counter', { index: index + 1, total: items.length })}
            </figcaption>
          </figure>
          {items.length > 1 ? (
            <div className="carousel__controls">
              <button type="button" className="icon-button" onClick={() => go(-1)} aria-label={t('history.results.previous')}>
                <Icon icon={chevronBackOutline} />
              </button>
              <button type="button" className="icon-button" onClick={() => go(1)} aria-label={t('history.results.next')} data-testid="carousel-next">
                <Icon icon={chevronForwardOutline} />
              </button>
            </div>
          ) : null}
        </div>
      ) : null}
      {failed.length > 0 ? (
        <ul className="results__failed">
          {failed.map((output) => (
            <li key={output.name + (output.view ?? '')}>{t('history.results.failedOutput', { name: categoryName(output.category), reason: output.error })}</li>
          ))}
        </ul>
      ) : null}
      <div className="dialog__actions">
        <IonButton fill="clear" onClick={onClose}>
          {t('history.results.close')}
        </IonButton>
      </div>
    </Dialog>
  );
}
