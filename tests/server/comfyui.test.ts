// The ComfyUI engine through the real server, against a local server that speaks ComfyUI's
// protocol: which engine makes what (routes, GET /content/config), a model photo made end to end,
// a custom scene that keeps the shoe's pixels as photographed, a node that fails, a prompt ComfyUI
// refuses, a slow queue and a long run past the deadline (cancelled on ComfyUI, refunded), an
// engine configured away after a task was planned, and routes the server refuses to start with.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/test-app';
import { signedInSeller } from '../support/sellers';
import { uploadViews } from '../support/photos';
import { FIVE_VIEWS, viewPhoto } from '../fixtures/views';
import { expectBalanced } from '../support/wallet';
import { fakeComfyUi, type FakeComfyUi } from '../support/comfyui-server';
import { jobs } from '../../server/db/schema';
import { ConfigError, loadConfig } from '../../server/config/env';
import { runStudioJobsUntilFinished } from '../support/studio-runner';
import { cutOut } from '../../server/studio/segment';
import { catalogue, routeOption, type EngineSupport } from '../../server/content/catalogue';
import { fillWorkflow, WORKFLOWS } from '../../server/content/comfyui';

type Seller = { token: string; id: string };
type Output = { name: string; status: string; error: string | null };

const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'accept-language': 'en' });
let keys = 0;
const nextKey = () => `comfy-key-${Date.now()}-${(keys += 1)}`;
/** Deadline of one ComfyUI picture in this file's app: long for the fake, short for a test to wait out. */
const TIMEOUT_MS = 6000;

const person = (category: 'HALF_BODY' | 'FULL_BODY', background: 'SCENE' | 'SIMPLE' | 'CUSTOM', description?: string) => ({
  content_module: 'REAL_PERSON_IMAGE',
  category,
  background,
  custom_params: { shoe_params: {}, ...(description ? { custom_scene_description: description } : {}) },
  name: `${category}:${background}`,
  selected: true,
});

let fake: FakeComfyUi;
let t: TestApp;

async function generate(app: TestApp, seller: Seller, content_config: unknown[], material_ids: string[]) {
  const res = await app.app.inject({
    method: 'POST',
    url: '/api/v1/content/generate',
    headers: { ...auth(seller.token), 'idempotency-key': nextKey() },
    payload: { content_config, material_ids },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: string; cost: number };
}

async function balance(app: TestApp, seller: Seller): Promise<number> {
  return (await app.app.inject({ method: 'GET', url: '/api/v1/tokens/balance', headers: auth(seller.token) })).json().data.total_tokens;
}

/** A task made by the studio (its cut-outs first): sized for a busy machine. */
async function waitForTask(app: TestApp, seller: Seller, id: string, timeoutMs = 240_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = (await app.app.inject({ method: 'GET', url: `/api/v1/content/tasks/${id}`, headers: auth(seller.token) })).json().data;
    if (!['pending', 'processing'].includes(task.status)) return task as { status: string; failure_type: string | null; outputs: Output[]; result: { url: string; category: string }[] };
    if (Date.now() > deadline) throw new Error(`task ${id} still ${task.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The prompt ids ComfyUI was sent whose text mentions `word`. */
function promptsAbout(word: string): string[] {
  return [...fake.prompts].filter(([, sent]) => JSON.stringify(sent.prompt).includes(word)).map(([id]) => id);
}

beforeAll(async () => {
  fake = await fakeComfyUi();
  // The seller's own words pick what happens on the GPU.
  fake.behaviour = (prompt) => {
    const text = JSON.stringify(prompt);
    if (text.includes('volcano')) return { fail: { classType: 'KSampler', message: 'CUDA out of memory. Tried to allocate 2.00 GiB', type: 'torch.OutOfMemoryError' } };
    if (text.includes('glacier')) return { runMs: 60_000 };
    return { runMs: 30 };
  };
  t = await createTestApp({
    COMFYUI_URL: fake.url,
    COMFYUI_TIMEOUT_MS: String(TIMEOUT_MS),
    COMFYUI_MAX_SIDE: '512',
    ENGINE_ROUTES: 'HALF_BODY=comfyui,FULL_BODY=comfyui,PRODUCT=comfyui',
    SIGN_UP_BONUS_TOKENS: '100',
  });
}, 300_000);

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('which engine makes what', () => {
  const bare: EngineSupport = { aiImages: false, aiVideo: false, ffmpeg: true, comfyui: false, routes: {} };

  it('sends model photos to ComfyUI when it is the AI engine configured, and to the remote one when both are unless routed', () => {
    const halfBody = { category: 'HALF_BODY' as const, background: 'SIMPLE' as const, custom: false };
    expect(routeOption(halfBody, bare)).toEqual({ engine: null, reason: 'NEEDS_AI_IMAGES' });
    expect(routeOption(halfBody, { ...bare, comfyui: true })).toEqual({ engine: 'comfyui' });
    expect(routeOption(halfBody, { ...bare, comfyui: true, aiImages: true })).toEqual({ engine: 'remote' });
    expect(routeOption(halfBody, { ...bare, comfyui: true, aiImages: true, routes: { HALF_BODY: 'comfyui' } })).toEqual({ engine: 'comfyui' });
  });

  it('paints a custom product scene on ComfyUI only where routed; the looks stay with the studio engine', () => {
    const custom = { category: 'PRODUCT' as const, custom: true };
    expect(routeOption(custom, { ...bare, comfyui: true })).toEqual({ engine: null, reason: 'CUSTOM_NOT_FOR_CATEGORY' });
    const routed = { ...bare, comfyui: true, routes: { PRODUCT: 'comfyui' as const, POSTER: 'comfyui' as const } };
    expect(routeOption(custom, routed)).toEqual({ engine: 'comfyui' });
    expect(routeOption({ category: 'PRODUCT', custom: false }, routed)).toEqual({ engine: 'studio' });
    expect(routeOption({ category: 'POSTER', custom: true }, routed)).toEqual({ engine: 'comfyui' });
    expect(routeOption({ category: 'POSTER', custom: true }, { ...bare, comfyui: true })).toEqual({ engine: 'studio' });
    expect(routeOption({ category: 'PRODUCT2', custom: true }, routed)).toEqual({ engine: null, reason: 'CUSTOM_NOT_FOR_CATEGORY' });
  });

  it('lists the engines a bare server has: the studio engine alone', () => {
    expect(catalogue(bare, 'en').engines).toEqual([{ name: 'studio', categories: ['PRODUCT', 'PRODUCT2', 'POSTER', 'OUTFIT_STILL_LIFE', 'OUTFIT_COLOR', 'CREATIVE_VIDEO'] }]);
  });

  it('GET /content/config names the engines, with model photos and custom product scenes on ComfyUI', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/content/config', headers: { 'accept-language': 'en' } });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as {
      categories: { category: string; available: boolean; reason: string | null; sub_options: { value: string; available: boolean }[]; custom: { available: boolean } }[];
      engines: { name: string; categories: string[] }[];
    };
    const of = (name: string) => data.categories.find((c) => c.category === name)!;
    for (const category of ['HALF_BODY', 'FULL_BODY']) {
      expect(of(category)).toMatchObject({ available: true, reason: null });
      expect(of(category).sub_options).toEqual(['SCENE', 'SIMPLE', 'CUSTOM'].map((value) => ({ value, available: true, reason: null })));
    }
    expect(of('PRODUCT').custom.available).toBe(true);
    expect(of('PRODUCT2').custom.available).toBe(false);
    expect(of('CREATIVE_VIDEO').sub_options.find((s) => s.value === 'CUSTOM')!.available).toBe(false);
    const studio = ['PRODUCT', 'PRODUCT2', 'POSTER', 'OUTFIT_STILL_LIFE', 'OUTFIT_COLOR', ...(t.app.generation.support.ffmpeg ? ['CREATIVE_VIDEO'] : [])];
    expect(data.engines).toEqual([
      { name: 'studio', categories: studio },
      { name: 'comfyui', categories: ['HALF_BODY', 'FULL_BODY', 'PRODUCT'] },
    ]);
  });
});

describe('the workflow templates', () => {
  it('each holds one picture to save and is filled completely', () => {
    const values = { checkpoint: 'a.ckpt', prompt: 'a shoe', seed: 42, output_prefix: 'solestudio/x', photo: 'p.png', shoe_mask: 'm.png', staged: 's.png' };
    for (const template of Object.values(WORKFLOWS)) {
      const filled = fillWorkflow(template, values);
      expect(JSON.stringify(filled)).not.toMatch(/\{\{/);
      expect(Object.values(filled).filter((node) => node.class_type === 'SaveImage')).toHaveLength(1);
      const sampler = Object.values(filled).find((node) => node.class_type === 'KSampler')!;
      expect(sampler.inputs.seed).toBe(42);
    }
    expect(() => fillWorkflow(WORKFLOWS['model-photo'], { checkpoint: 'a.ckpt' })).toThrow(/\{\{staged\}\}|\{\{prompt\}\}/);
  });
});

describe('pictures made on ComfyUI', () => {
  it('makes a model photo: the shoe uploaded under a name from its content, the workflow queued and followed, a JPEG stored', async () => {
    const seller = await signedInSeller(t, 'comfyhalf');
    const photos = await uploadViews(t, seller.token);
    const before = await balance(t, seller);
    const earlier = new Set(fake.prompts.keys());
    const task = await waitForTask(t, seller, (await generate(t, seller, [person('HALF_BODY', 'SIMPLE')], photos)).id);
    expect(task.status, JSON.stringify(task.outputs)).toBe('completed');
    expect(task.result).toHaveLength(1);
    const image = await t.app.inject({ method: 'GET', url: task.result[0]!.url });
    const meta = await sharp(image.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 1600]);
    expect(await balance(t, seller)).toBe(before - 8);
    await expectBalanced(t, seller);

    // The prompt ComfyUI ran: the model-photo template, from this server's client, with the shoe it was sent.
    const [id, ...more] = [...fake.prompts.keys()].filter((key) => !earlier.has(key));
    expect(more).toEqual([]);
    const sent = fake.prompts.get(id!)!;
    expect(sent.clientId).toMatch(/^[0-9a-f-]{36}$/);
    const classes = Object.values(sent.prompt).map((node) => node.class_type);
    expect(classes).toEqual(Object.values(WORKFLOWS['model-photo']).map((node) => node.class_type));
    const loaded = Object.values(sent.prompt).find((node) => node.class_type === 'LoadImage')!.inputs!.image as string;
    expect(loaded).toMatch(/^solestudio\/staged-[0-9a-f]{24}\.png$/);
    // The shoe went opaque in a transparent frame (ComfyUI paints what is transparent) and came back as it went.
    const staged = await sharp(fake.inputs.get(loaded)!).raw().toBuffer({ resolveWithObject: true });
    expect(staged.info.channels).toBe(4);
    const { width, height } = staged.info;
    const back = await sharp(image.rawPayload).resize(width, height, { fit: 'fill' }).removeAlpha().raw().toBuffer();
    const alphaAt = (x: number, y: number) => staged.data[(y * width + x) * 4 + 3]!;
    const diffs: number[] = [];
    let transparent = 0;
    for (let y = 1; y < height - 1; y += 1) {
      for (let x = 1; x < width - 1; x += 1) {
        if (alphaAt(x, y) === 0) transparent += 1;
        if (![alphaAt(x, y), alphaAt(x - 1, y), alphaAt(x + 1, y), alphaAt(x, y - 1), alphaAt(x, y + 1)].every((a) => a === 255)) continue;
        const i = y * width + x;
        diffs.push([0, 1, 2].reduce((sum, c) => sum + Math.abs(back[i * 3 + c]! - staged.data[i * 4 + c]!), 0) / 3);
      }
    }
    expect(transparent / (width * height)).toBeGreaterThan(0.8);
    expect(diffs.length).toBeGreaterThan(2000);
    expect(diffs.reduce((a, b) => a + b, 0) / diffs.length).toBeLessThan(3);
    expect(JSON.stringify(sent.prompt)).toMatch(/The shoes are \w+/);
    expect(fake.history.get(id!)!.status.status_str).toBe('success');
    expect(fake.seen.some((line) => line.startsWith('GET /view?filename=model-photo_') && line.includes('type=output'))).toBe(true);

    // The same photos again: the upload replaces its file instead of adding one.
    const uploads = fake.inputs.size;
    const posted = () => fake.seen.filter((line) => line === 'POST /upload/image').length;
    const postedBefore = posted();
    const again = await waitForTask(t, seller, (await generate(t, seller, [person('HALF_BODY', 'SIMPLE')], photos)).id);
    expect(again.status).toBe('completed');
    expect(fake.inputs.size).toBe(uploads);
    expect(posted()).toBe(postedBefore + 1);
  }, 300_000);

  it("paints a custom scene around the shoe and keeps the shoe's pixels as photographed", async () => {
    const seller = await signedInSeller(t, 'comfyscene');
    const photos = await uploadViews(t, seller.token);
    const task = await waitForTask(
      t,
      seller,
      (
        await generate(
          t,
          seller,
          [{ content_module: 'PRODUCT_IMAGE', category: 'PRODUCT', views: ['right_45'], custom_params: { shoe_params: {}, custom_scene_description: 'on a marble shelf' }, name: 'PRODUCT', selected: true }],
          photos,
        )
      ).id,
    );
    expect(task.status, JSON.stringify(task.outputs)).toBe('completed');
    const [id] = promptsAbout('marble shelf');
    const sent = Object.values(fake.prompts.get(id!)!.prompt);
    expect(sent.map((node) => node.class_type)).toContain('InvertMask');
    expect(sent.find((node) => node.class_type === 'LoadImageMask')!.inputs!.image).toMatch(/^solestudio\/shoe_mask-[0-9a-f]{24}\.png$/);

    // The photo uploaded as the right_45 view: the same fixture, and where its shoe is.
    const photo = await viewPhoto(FIVE_VIEWS.indexOf('right_45'), { background: 'plain' });
    const taken = await sharp(photo.jpeg).removeAlpha().raw().toBuffer();
    const result = await t.app.inject({ method: 'GET', url: task.result[0]!.url });
    const { data: made, info } = await sharp(result.rawPayload).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([photo.width, photo.height]);
    // The shoe, a few pixels in from its outline, and the backdrop, a few pixels out. The shoe is
    // where the truth and the engine's cut-out agree: where they differ (this fixture's light
    // laces reaching the outline) is the cut-out's accuracy, measured in cutout.test.ts.
    const { mask: cutMask } = await cutOut(photo.jpeg);
    const near = (x: number, y: number, r: number, want: number) => {
      for (let dy = -r; dy <= r; dy += 1) {
        for (let dx = -r; dx <= r; dx += 1) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx < 0 || yy < 0 || xx >= photo.width || yy >= photo.height) return false;
          const i = yy * photo.width + xx;
          if (photo.mask[i] !== want || (want === 1 && cutMask[i] !== 255)) return false;
        }
      }
      return true;
    };
    const shoe: number[] = [];
    const backdrop: number[] = [];
    for (let y = 0; y < photo.height; y += 3) {
      for (let x = 0; x < photo.width; x += 3) {
        const i = y * photo.width + x;
        const diff = (Math.abs(made[i * 3]! - taken[i * 3]!) + Math.abs(made[i * 3 + 1]! - taken[i * 3 + 1]!) + Math.abs(made[i * 3 + 2]! - taken[i * 3 + 2]!)) / 3;
        if (near(x, y, 4, 1)) shoe.push(diff);
        else if (near(x, y, 40, 0)) backdrop.push(diff);
      }
    }
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)]!;
    expect(shoe.length).toBeGreaterThan(5000);
    // Only the JPEG's own loss (the VAE brightened every pixel it returned by 12).
    expect(mean(shoe)).toBeLessThan(2);
    expect(p99(shoe)).toBeLessThan(8);
    // The backdrop was painted.
    expect(mean(backdrop)).toBeGreaterThan(40);
  }, 300_000);

  it('a node that fails fails its output with the reason, refunded; the others are made', async () => {
    const seller = await signedInSeller(t, 'comfynode');
    const photos = await uploadViews(t, seller.token);
    const before = await balance(t, seller);
    const mixed = await waitForTask(
      t,
      seller,
      (await generate(t, seller, [person('HALF_BODY', 'SCENE'), person('FULL_BODY', 'CUSTOM', 'on a volcano rim at dusk')], photos)).id,
    );
    expect(mixed.status).toBe('partially_completed');
    const byName = Object.fromEntries(mixed.outputs.map((o) => [o.name, o]));
    expect(byName['HALF_BODY:SCENE']!.status).toBe('completed');
    expect(byName['FULL_BODY:CUSTOM']).toMatchObject({ status: 'failed' });
    expect(byName['FULL_BODY:CUSTOM']!.error).toMatch(/refused: KSampler failed: CUDA out of memory.*refunded/);
    const [failed] = promptsAbout('volcano');
    expect(fake.history.get(failed!)!.status).toMatchObject({ status_str: 'error', completed: false });
    expect(await balance(t, seller)).toBe(before - 8);

    // Alone, the failing picture fails the task: a system error, everything refunded.
    const alone = await waitForTask(t, seller, (await generate(t, seller, [person('FULL_BODY', 'CUSTOM', 'a volcano in the night')], photos)).id);
    expect([alone.status, alone.failure_type]).toEqual(['failed', 'system_error']);
    expect(await balance(t, seller)).toBe(before - 8);
    await expectBalanced(t, seller);
  }, 300_000);

  it('a prompt ComfyUI refuses when it is queued (400 with node_errors) is refunded', async () => {
    const seller = await signedInSeller(t, 'comfyrefused');
    const photos = await uploadViews(t, seller.token);
    const before = await balance(t, seller);
    // This ComfyUI has no such checkpoint.
    const checkpoints = fake.checkpoints;
    fake.checkpoints = ['sd_xl_base_1.0.safetensors'];
    onTestFinished(() => {
      fake.checkpoints = checkpoints;
    });
    const task = await waitForTask(t, seller, (await generate(t, seller, [person('FULL_BODY', 'SIMPLE')], photos)).id);
    expect([task.status, task.failure_type]).toEqual(['failed', 'system_error']);
    expect(task.outputs[0]!.error).toMatch(/refused: CheckpointLoaderSimple 1: Value not in list \(ckpt_name: 'sd-v1-5-inpainting.ckpt' not in/);
    expect(await balance(t, seller)).toBe(before);
    await expectBalanced(t, seller);
  }, 300_000);

  it('the fake refuses a graph as ComfyUI does: an unknown node class, a missing input', async () => {
    const post = (prompt: unknown) => fetch(`${fake.url}/prompt`, { method: 'POST', body: JSON.stringify({ prompt }) });
    const unknown = await post({ '1': { class_type: 'IPAdapterApply', inputs: {} } });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { type: 'missing_node_type', message: "Node 'IPAdapterApply' not found. The custom node may not be installed." }, node_errors: {} });
    const missing = await post({ '1': { class_type: 'CheckpointLoaderSimple', inputs: {} }, '2': { class_type: 'SaveImage', inputs: { filename_prefix: 'x', images: ['3', 0] } }, '3': { class_type: 'VAEDecode', inputs: { samples: ['1', 0] } } });
    expect(missing.status).toBe(400);
    const body = (await missing.json()) as { error: { type: string }; node_errors: Record<string, { errors: { type: string }[] }> };
    expect(body.error.type).toBe('prompt_outputs_failed_validation');
    expect(body.node_errors['3']).toMatchObject({ class_type: 'VAEDecode', dependent_outputs: ['2'] });
    expect(body.node_errors['3']!.errors.map((e) => e.type).sort()).toEqual(['required_input_missing', 'return_type_mismatch']);
  });

  it('a slow queue: a prompt still waiting at the deadline is taken out of the queue, nothing else stopped, and refunded', async () => {
    const seller = await signedInSeller(t, 'comfyslow');
    const photos = await uploadViews(t, seller.token);
    const before = await balance(t, seller);
    // Another client's long prompt holds the GPU.
    const other = fake.occupy(120_000);
    onTestFinished(async () => {
      await fetch(`${fake.url}/interrupt`, { method: 'POST', body: JSON.stringify({ prompt_id: other }) });
    });
    const task = await waitForTask(t, seller, (await generate(t, seller, [person('FULL_BODY', 'CUSTOM', 'a snowy mountain pass')], photos)).id);
    expect([task.status, task.failure_type]).toEqual(['failed', 'system_error']);
    expect(task.outputs[0]!.error).toMatch(/did not answer in time.*refunded/);
    const [mine] = promptsAbout('snowy mountain pass');
    expect(fake.deleted).toContain(mine);
    expect(fake.state(mine!)).toBe('unknown');
    // Neither the other client's prompt nor anything else was interrupted.
    expect(fake.state(other)).toBe('running');
    expect(fake.interrupts).not.toContain(null);
    expect(fake.interrupts).not.toContain(mine);
    expect(await balance(t, seller)).toBe(before);
    await expectBalanced(t, seller);
  }, 300_000);

  it('a prompt still running at the deadline is interrupted — it alone — and refunded', async () => {
    const seller = await signedInSeller(t, 'comfylong');
    const photos = await uploadViews(t, seller.token);
    const before = await balance(t, seller);
    const task = await waitForTask(t, seller, (await generate(t, seller, [person('HALF_BODY', 'CUSTOM', 'a glacier at dawn')], photos)).id);
    expect([task.status, task.failure_type]).toEqual(['failed', 'system_error']);
    expect(task.outputs[0]!.error).toMatch(/did not answer in time/);
    const [mine] = promptsAbout('glacier');
    expect(fake.interrupts).toContain(mine);
    expect(fake.interrupts).not.toContain(null);
    // ComfyUI stopped it at its next node and says so in its history.
    const deadline = Date.now() + 5000;
    while (!fake.history.has(mine!) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.history.get(mine!)!.status.messages.map(([event]) => event)).toContain('execution_interrupted');
    expect(await balance(t, seller)).toBe(before);
    await expectBalanced(t, seller);
  }, 300_000);
});

describe('an engine configured away after a task was planned (jobs not run by the server)', () => {
  let quiet: TestApp;
  let seller: Seller;

  beforeAll(async () => {
    quiet = await createTestApp({ COMFYUI_URL: fake.url, RUN_JOBS: 'false', SIGN_UP_BONUS_TOKENS: '40' });
    seller = await signedInSeller(quiet, 'comfygone');
    await generate(quiet, seller, [person('HALF_BODY', 'SIMPLE')], await uploadViews(quiet, seller.token));
  }, 300_000);

  afterAll(async () => {
    await quiet?.close();
  });

  it('fails the output planned for ComfyUI with the reason and refunds it', async () => {
    const db = quiet.app.database.db;
    const [job] = await db.select().from(jobs).where(eq(jobs.status, 'queued'));
    // A runner of a server started without COMFYUI_URL.
    await runStudioJobsUntilFinished(quiet, job!.taskId!);
    const task = await waitForTask(quiet, seller, job!.taskId!);
    expect([task.status, task.failure_type]).toEqual(['failed', 'system_error']);
    expect(task.outputs[0]!.error).toMatch(/needs an AI image service/);
    expect(await balance(quiet, seller)).toBe(40);
    await expectBalanced(quiet, seller);
  }, 300_000);
});

describe('routes the server refuses to start with', () => {
  it('names ENGINE_ROUTES and what is wrong with it', () => {
    for (const [env, message] of [
      [{ ENGINE_ROUTES: 'HALF_BODY=comfyui' }, /HALF_BODY=comfyui, but COMFYUI_URL is not set/],
      [{ COMFYUI_URL: fake.url, ENGINE_ROUTES: 'FULL_BODY=studio' }, /the studio engine cannot make FULL_BODY/],
    ] as const) {
      // What the server and the worker read first at start-up.
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(message);
      try {
        loadConfig(env);
      } catch (error) {
        expect((error as ConfigError).problems.map((p) => p.variable)).toEqual(['ENGINE_ROUTES']);
      }
    }
  });
});
