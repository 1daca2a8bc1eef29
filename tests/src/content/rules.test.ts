// Task and material history's rules: dates, statuses, what the view button does, paging, and
// which material actions the selection allows (SPEC §4, §5, §9).
import { describe, expect, it } from 'vitest';
import {
  appendPage,
  formatDateTime,
  hasMorePages,
  materialActionProblem,
  materialView,
  showsResults,
  shownStatus,
  toggleAll,
  toggleOne,
  viewAction,
} from '../../../src/content/rules';

describe('formatDateTime', () => {
  it('reads YYYY-MM-DD HH:mm:ss in the device time zone, zero-padded', () => {
    expect(formatDateTime(new Date(2026, 0, 5, 7, 8, 9).toISOString())).toBe('2026-01-05 07:08:09');
    expect(formatDateTime(new Date(2026, 11, 31, 23, 59, 59).toISOString())).toBe('2026-12-31 23:59:59');
  });

  it('shows nothing for a date it cannot read', () => {
    expect(formatDateTime('not a date')).toBe('');
  });
});

describe('task statuses and viewing', () => {
  it('shows pending as processing and keeps every other status', () => {
    expect(shownStatus('pending')).toBe('processing');
    expect(shownStatus('processing')).toBe('processing');
    expect(shownStatus('partially_completed')).toBe('partially_completed');
    expect(shownStatus('failed')).toBe('failed');
  });

  it('opens results unless failed; a rejection opens its reasons; a system error cannot be viewed', () => {
    expect(viewAction({ status: 'processing', failure_type: null })).toBe('results');
    expect(viewAction({ status: 'completed', failure_type: null })).toBe('results');
    expect(viewAction({ status: 'failed', failure_type: 'manual_rejection' })).toBe('rejection');
    expect(viewAction({ status: 'failed', failure_type: 'system_error' })).toBe('disabled');
    expect(viewAction({ status: 'failed', failure_type: null })).toBe('disabled');
  });

  it('shows result images only once the task has completed, in part or in full', () => {
    expect(showsResults('completed')).toBe(true);
    expect(showsResults('partially_completed')).toBe(true);
    expect(showsResults('processing')).toBe(false);
    expect(showsResults('pending')).toBe(false);
  });

  it('reads the view out of a photo description', () => {
    expect(materialView(JSON.stringify({ view: 'front' }))).toBe('front');
    expect(materialView(JSON.stringify({ view: 'sideways' }))).toBeNull();
    expect(materialView('{')).toBeNull();
  });
});

describe('paging', () => {
  it('goes on while the page is below total_pages', () => {
    expect(hasMorePages({ page: 1, total_pages: 2 })).toBe(true);
    expect(hasMorePages({ page: 2, total_pages: 2 })).toBe(false);
    expect(hasMorePages({ page: 1, total_pages: 0 })).toBe(false);
    expect(hasMorePages(null)).toBe(false);
  });

  it('adds a page once per id, keeping the order (a task may move down a page as new ones arrive)', () => {
    const list = [{ id: 'a' }, { id: 'b' }];
    expect(appendPage(list, [{ id: 'b' }, { id: 'c' }])).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
    expect(list).toHaveLength(2);
  });
});

describe('material actions', () => {
  const image = (task_id: string | null = 't1') => ({ task_id, file_type: 'image/png' });
  const video = { task_id: 't2', file_type: 'video/mp4' };

  it('download and delete need at least one selected', () => {
    expect(materialActionProblem('download', [])).toBe('download_size_invalid');
    expect(materialActionProblem('delete', [])).toBe('del_size_invalid');
    expect(materialActionProblem('download', [image(), video])).toBeNull();
    expect(materialActionProblem('delete', [image()])).toBeNull();
  });

  it('edit needs a selected image', () => {
    expect(materialActionProblem('edit', [])).toBe('edit_size_invalid');
    expect(materialActionProblem('edit', [video])).toBe('edit_size_invalid');
    expect(materialActionProblem('edit', [image()])).toBeNull();
  });

  it('retry needs exactly one, made by a task from the seller’s photos', () => {
    expect(materialActionProblem('retry', [])).toBe('retry_size_invalid');
    expect(materialActionProblem('retry', [image(), image()])).toBe('retry_size_invalid');
    expect(materialActionProblem('retry', [image(null)])).toBe('retry_size_invalid');
    expect(materialActionProblem('retry', [image()])).toBeNull();
    expect(materialActionProblem('retry', [video])).toBeNull();
  });

  it('select-all selects the whole page, or clears it when all were selected; others stay', () => {
    const page = [{ id: 'a' }, { id: 'b' }];
    expect([...toggleAll(new Set(['x']), page)].sort()).toEqual(['a', 'b', 'x']);
    expect([...toggleAll(new Set(['a']), page)].sort()).toEqual(['a', 'b']);
    expect([...toggleAll(new Set(['a', 'b', 'x']), page)]).toEqual(['x']);
    expect([...toggleAll(new Set(), [])]).toEqual([]);
  });

  it('a tap toggles one', () => {
    expect([...toggleOne(new Set(['a']), 'b')].sort()).toEqual(['a', 'b']);
    expect([...toggleOne(new Set(['a']), 'a')]).toEqual([]);
  });
});
