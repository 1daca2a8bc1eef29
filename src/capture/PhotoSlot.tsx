// One view's slot (SPEC §2 upload slots): the photo or a drawing of the angle, where its upload
// stands, what the server's check found, and shoot, add or replace, retry, save again, remove and
// move. Used by /task and /task/retry.
import type { ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { REQUIRED_VIEWS, SHOE_VIEWS, type ShoeView } from '../../contract/enums';
import { db } from '../offline/db';
import type { DraftKey, SlotRecord } from '../offline/records';
import { retryJob } from '../offline/jobs/upload';
import { heldPhoto } from './held';
import { processUploads, uploadProgressAtom } from './uploads';
import { ViewIllustration } from './ViewIllustration';
import type { DraftPhotos } from './useDraftPhotos';

export interface PhotoSlotProps {
  view: ShoeView;
  draftKey: DraftKey;
  photos: DraftPhotos;
  onShoot: (view: ShoeView) => void;
  /** Whether the photo may move to another view (the task page's batch sorting). */
  movable?: boolean;
  /** Shown when the slot has no photo of its own (a retry's accepted or rejected photo). */
  fallback?: { url: string | null; alt: string };
  /** Extra lines under the label (a retry's verdict). */
  children?: ReactNode;
  /** Overrides the slot's state name (data-state) when it has no photo of its own. */
  emptyState?: string;
}

export function PhotoSlot({ view, draftKey, photos, onShoot, movable = false, fallback, children, emptyState = 'empty' }: PhotoSlotProps) {
  const { t } = useTranslation();
  const sending = useAtomValue(uploadProgressAtom);
  const slot: SlotRecord | undefined = photos.draft?.slots[view];
  const kept = heldPhoto(photos.held, draftKey, view);
  const url = kept?.url ?? photos.thumbnail(slot?.photoId);
  const compressing = photos.compressing[view];
  const sent = slot?.state === 'uploading' && slot.jobId ? sending[slot.jobId] : undefined;
  const stateName = kept ? 'held' : (slot?.state ?? emptyState);
  const percent = compressing ?? (sent === undefined ? undefined : sent * 100);
  let state: string | null = null;
  if (compressing !== undefined) state = t('task.slot.states.compressing', { percent: Math.round(compressing) });
  else if (kept) state = t('task.slot.states.held');
  else if (sent !== undefined) state = t('task.slot.states.uploadingPercent', { percent: Math.round(sent * 100) });
  else if (slot) state = t(`task.slot.states.${slot.state}`);
  const inputId = `slot-input-${view}`;
  const shownUrl = url ?? fallback?.url ?? undefined;
  return (
    <li className={`slot slot--${stateName}`} data-testid={`slot-${view}`} data-state={stateName}>
      <div className="slot__picture">
        {shownUrl ? (
          <img src={shownUrl} alt={url ? t('task.slot.photoAlt', { view: t(`task.views.${view}`) }) : fallback!.alt} />
        ) : (
          <ViewIllustration view={view} className="slot__drawing" />
        )}
      </div>
      <div className="slot__label">
        <span>{t(`task.views.${view}`)}</span>
        <span className="slot__chip">{REQUIRED_VIEWS.includes(view as (typeof REQUIRED_VIEWS)[number]) ? t('task.required') : t('task.optional')}</span>
      </div>
      {children}
      {state ? <p className="slot__state">{state}</p> : null}
      {percent !== undefined ? <progress className="slot__progress" max={100} value={Math.round(percent)} aria-label={state ?? undefined} /> : null}
      {slot?.warnings && slot.warnings.length > 0 ? (
        <ul className="slot__warnings" data-testid={`warnings-${view}`}>
          {slot.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      ) : null}
      {slot?.state === 'failed' && slot.error ? (
        <p className="slot__error" role="alert">
          {slot.error}
        </p>
      ) : null}
      <div className="slot__actions">
        <button type="button" className="slot__button" onClick={() => onShoot(view)}>
          {slot ? t('task.slot.retake') : t('task.slot.shoot')}
        </button>
        <label htmlFor={inputId} className="slot__button">
          {slot ? t('task.slot.replace') : t('task.slot.add')}
        </label>
        <input
          id={inputId}
          className="visually-hidden"
          type="file"
          accept="image/jpeg,image/png"
          data-testid={`slot-input-${view}`}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void photos.addPhoto(view, file);
          }}
        />
        {slot?.state === 'failed' && slot.jobId ? (
          <button type="button" className="slot__button" onClick={() => void retryJob(db, slot.jobId!).then(processUploads)}>
            {t('task.slot.retry')}
          </button>
        ) : null}
        {kept ? (
          <button type="button" className="slot__button" onClick={() => void photos.saveHeld(view)} data-testid={`save-again-${view}`}>
            {t('task.slot.saveAgain')}
          </button>
        ) : null}
        {slot || kept ? (
          <button type="button" className="slot__button slot__button--danger" onClick={() => void photos.remove(view)}>
            {t('task.slot.remove')}
          </button>
        ) : null}
        {movable && slot && !kept ? (
          <select
            className="slot__move"
            aria-label={t('task.slot.moveLabel')}
            value=""
            onChange={(event) => void photos.move(view, event.target.value as ShoeView)}
            data-testid={`move-${view}`}
          >
            <option value="" disabled>
              {t('task.slot.moveTo')}
            </option>
            {SHOE_VIEWS.filter((other) => other !== view).map((other) => (
              <option key={other} value={other}>
                {t(`task.views.${other}`)}
              </option>
            ))}
          </select>
        ) : null}
      </div>
    </li>
  );
}
