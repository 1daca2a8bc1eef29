// A phone's grain and a room's light against verify-angle and the intake (issue 16 §2c), on the
// guided camera's shots (tests/support/camera-shots.ts): both take the centred shots and refuse
// each bad one for the reason it was made bad, and six grainy shots make a task. The photo check
// alone on every grain level and light is grain-check-{centred,cut,refusals}.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import type { ShoeFixtureOptions } from '../fixtures/shoes';
import { cameraShot, GRAINS, LIGHTS, UNUSABLE } from '../support/camera-shots';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { uploadPhoto } from '../support/photos';
import type { Verdict } from '../../server/materials/findings';
import { intake } from '../../server/content/pipeline';
import { materials } from '../../server/db/schema';
import { translate } from '../../server/lib/i18n';

describe('verify-angle and the intake', () => {
  let t: TestApp;
  let seller: { token: string; id: string };
  const headers = () => ({ authorization: `Bearer ${seller.token}`, 'accept-language': 'en' });

  beforeAll(async () => {
    t = await createTestApp({ SIGN_UP_BONUS_TOKENS: '100' });
    seller = await signedInSeller(t, 'grain');
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  it('agree on every photo: the centred shots are taken by both, and each bad shot is refused by both for the reason it was made bad', async () => {
    // Each shot with what both must say of it: null, taken; else the verdict it is refused for.
    const shots: { name: string; options: ShoeFixtureOptions; refused: Verdict | null }[] = [
      ...GRAINS.map((grain) => ({ name: `centred, dim, grain ${grain}`, options: { ...LIGHTS.dim, grain }, refused: null })),
      ...GRAINS.map((grain) => ({ name: `cut off, dim, grain ${grain}`, options: { ...LIGHTS.dim, grain, placement: 'cut' as const }, refused: 'SUBJECT_CUT_OFF' as const })),
      ...Object.entries(UNUSABLE).map(([name, { options, reason }]) => ({ name: `${name}, grain 24`, options: { ...options, grain: 24 }, refused: reason })),
    ];
    const checked: { name: string; id: string; refused: Verdict | null; ok: boolean; failed: string[] }[] = [];
    for (const shot of shots) {
      const id = await uploadPhoto(t, seller.token, await cameraShot(shot.options), 'front');
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/shoe-verification/verify-angle', headers: headers(), payload: { material_id: id, view: 'front' } });
      expect(res.statusCode, res.body).toBe(200);
      const { ok, findings } = res.json().data as { ok: boolean; findings: { ok: boolean; message: string }[] };
      checked.push({ name: shot.name, id, refused: shot.refused, ok, failed: findings.filter((f) => !f.ok).map((f) => f.message) });
    }

    const rows = await t.app.database.db
      .select({ id: materials.id, storageKey: materials.storageKey })
      .from(materials)
      .where(inArray(materials.id, checked.map((c) => c.id)));
    const rejections = new Map((await intake(t.app.storage, rows)).map((r) => [r.materialId, r.reason]));
    // What each said, side by side with what it should have said: a failure shows every shot.
    const said = checked.map((c) => ({
      name: c.name,
      check: c.ok ? 'passed' : 'refused',
      named: c.refused === null ? null : c.failed.includes(translate('en', c.refused)),
      intake: rejections.get(c.id) ?? null,
    }));
    const meant = checked.map((c) => ({
      name: c.name,
      check: c.refused === null ? 'passed' : 'refused',
      named: c.refused === null ? null : true,
      intake: c.refused,
    }));
    expect(said).toEqual(meant);
  }, 480_000);

  it('makes a product-shots task from six grainy shots of a centred shoe in a dim room, not rejected at intake', async () => {
    const views = ['right_45', 'right_side', 'left_side', 'front', 'back', 'bottom'];
    const ids: string[] = [];
    for (const [i, view] of views.entries()) ids.push(await uploadPhoto(t, seller.token, await cameraShot({ ...LIGHTS.dim, grain: 32, seed: 40 + i }), view));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/content/generate',
      headers: { ...headers(), 'idempotency-key': `grain-${Date.now()}` },
      payload: {
        content_config: [{ content_module: 'PRODUCT_IMAGE', category: 'PRODUCT', custom_params: { shoe_params: {} }, name: 'PRODUCT', selected: true, views: ['front', 'right_side'] }],
        material_ids: ids,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json().data;
    // Sized for a busy machine: six cut-outs.
    const deadline = Date.now() + 240_000;
    let task: { status: string; failure_type: string | null };
    for (;;) {
      task = (await t.app.inject({ method: 'GET', url: `/api/v1/content/tasks/${id}`, headers: headers() })).json().data;
      if (!['pending', 'processing'].includes(task.status) || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect([task.status, task.failure_type]).toEqual(['completed', null]);
  }, 300_000);
});
