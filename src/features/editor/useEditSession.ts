// One edit in progress: its history (undo and redo, a drag one step) and its draft in IndexedDB,
// written a moment after each change, so a reload, a crash or a closed tab loses nothing.
import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { EditDescription } from '../../../contract/edit';
import { db } from '../../offline/db';
import type { EditDraftRecord } from '../../offline/records';
import { record, redo, startHistory, undo, type EditAction, type EditHistory } from './edit-state';

type Step = { type: 'act'; action: EditAction } | { type: 'undo' } | { type: 'redo' } | { type: 'replace'; edit: EditDescription };

function reduce(history: EditHistory, step: Step): EditHistory {
  switch (step.type) {
    case 'act':
      return record(history, step.action);
    case 'undo':
      return undo(history);
    case 'redo':
      return redo(history);
    case 'replace':
      return startHistory(step.edit);
  }
}

/** How long after the last change the draft is written. */
const DRAFT_DELAY_MS = 300;

export interface EditSession {
  edit: EditDescription;
  canUndo: boolean;
  canRedo: boolean;
  act: (action: EditAction) => void;
  undo: () => void;
  redo: () => void;
  /** The draft as stored now (written first if a write is waiting). */
  flush: () => Promise<EditDraftRecord>;
}

export function useEditSession(draft: EditDraftRecord): EditSession {
  const [history, dispatch] = useReducer(reduce, draft.edit, startHistory);
  const latest = useRef(draft);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const write = useCallback(async () => {
    clearTimeout(timer.current);
    timer.current = undefined;
    await db.edits.put(latest.current);
    return latest.current;
  }, []);

  useEffect(() => {
    if (latest.current.edit === history.present) return;
    latest.current = { ...latest.current, edit: history.present, updatedAt: Date.now() };
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void write().catch((error: unknown) => console.warn('The edit draft could not be kept', error)), DRAFT_DELAY_MS);
  }, [history.present, write]);

  // Logos added change the stored draft alongside the edit.
  useEffect(() => {
    latest.current = { ...latest.current, logos: draft.logos };
  }, [draft.logos]);

  // Leaving the editor writes what is waiting.
  useEffect(
    () => () => {
      if (timer.current !== undefined) void write().catch(() => {});
    },
    [write],
  );

  return {
    edit: history.present,
    canUndo: history.past.length > 0,
    canRedo: history.future.length > 0,
    act: useCallback((action: EditAction) => dispatch({ type: 'act', action }), []),
    undo: useCallback(() => dispatch({ type: 'undo' }), []),
    redo: useCallback(() => dispatch({ type: 'redo' }), []),
    flush: write,
  };
}
