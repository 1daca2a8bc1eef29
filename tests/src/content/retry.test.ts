// A rejected task's retry (SPEC §4, §5): which photos stay, which views are shot again and why,
// and the styles sent again.
import { describe, expect, it } from 'vitest';
import type { FailureDetail, Task } from '../../../contract/content';
import { retryConfig, type ContentConfigEntry } from '../../../contract/selection';
import { planRetry } from '../../../src/content/retry';

const material = (id: string, view: string) => ({ id, file_url: `/files/${id}.jpg`, description: JSON.stringify({ view }) });

const task = (config: Record<string, unknown>[], history: Record<string, unknown>[] = []): Task => ({
  id: 'task-1',
  status: 'failed',
  failure_type: 'manual_rejection',
  content_config: config,
  config_history: history,
  material_ids: ['m1', 'm2', 'm3', 'm4', 'm5', 'm6'],
  materials: [material('m1', 'right_45'), material('m2', 'right_side'), material('m3', 'left_side'), material('m4', 'front'), material('m5', 'back'), material('m6', 'bottom')],
  parameters: config,
  outputs: [{ name: 'POSTER', category: 'POSTER', view: null, cost: 4, status: 'failed', error: 'rejected' }],
  result: [],
  cost: 4,
  created_at: '2026-11-21T10:00:00.000Z',
  finished_at: '2026-11-21T10:00:05.000Z',
});

const rejected = (materialId: string, reason: string): FailureDetail => ({ id: `f-${materialId}`, material_id: materialId, file_url: `/files/${materialId}.jpg`, reason });

describe('planRetry', () => {
  it('keeps the accepted photos and lists each rejected view with its photo and reason', () => {
    const { retry, rejected: views } = planRetry(task([{ name: 'POSTER', category: 'POSTER', content_module: 'PRODUCT_IMAGE' }]), [
      rejected('m4', 'Busy background.'),
      rejected('m6', 'Too dark.'),
    ]);
    expect(retry.kept.map((k) => k.view)).toEqual(['right_45', 'right_side', 'left_side', 'back']);
    expect(retry.kept[0]).toEqual({ view: 'right_45', materialId: 'm1', url: '/files/m1.jpg' });
    expect([...views.entries()]).toEqual([
      ['front', { reason: 'Busy background.', url: '/files/m4.jpg' }],
      ['bottom', { reason: 'Too dark.', url: '/files/m6.jpg' }],
    ]);
    expect(retry).toMatchObject({ taskId: 'task-1', contentType: 'product', total: 4, outputs: 1 });
  });

  it('sends the styles again with the latest history merged in by name, and knows the task’s kind', () => {
    const { retry } = planRetry(
      task([{ name: 'v', category: 'CREATIVE_VIDEO', content_module: 'CREATIVE_VIDEO', creative_scene: 'SHOE_SAND' }], [{ name: 'v', creative_scene: 'SHOE_GIANT' }]),
      [rejected('m1', 'Blurred.')],
    );
    expect(retry.contentType).toBe('video');
    expect(retry.contentConfig).toEqual([{ name: 'v', category: 'CREATIVE_VIDEO', content_module: 'CREATIVE_VIDEO', creative_scene: 'SHOE_GIANT' }]);
  });
});

describe('retryConfig', () => {
  const product = (views?: string[]) => ({ name: 'P', category: 'PRODUCT', content_module: 'PRODUCT_IMAGE', selected: true, custom_params: { shoe_params: {} }, ...(views ? { views } : {}) }) as ContentConfigEntry;

  it('keeps product shots of the views the retry still has, and deselects one left with none', () => {
    expect(retryConfig([product(['front', 'bottom'])], ['front', 'back'])[0]).toMatchObject({ views: ['front'], selected: true });
    expect(retryConfig([product(['bottom'])], ['front'])[0]).toMatchObject({ views: undefined, selected: false });
    // An entry for every view stays as it was.
    expect(retryConfig([product()], ['front'])[0]).toEqual(product());
  });
});
