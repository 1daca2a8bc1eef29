// SPEC §4 "Selection on task screen" and §5's task rules for page 2.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PRICES,
  EMPTY_SELECTION,
  plannedOutputs,
  priceOutputs,
  selectionProblem,
  toContentConfig,
  toggleCategory,
  toggleCustom,
  toggleSubOption,
  type Selection,
} from '../../contract/selection';

const apply = (...steps: ((s: Selection) => Selection)[]) => steps.reduce((s, step) => step(s), EMPTY_SELECTION);

describe('category and sub-cards', () => {
  it('selecting a category selects its first background or scene', () => {
    expect(apply((s) => toggleCategory(s, 'person', 'HALF_BODY')).categories).toEqual({ HALF_BODY: ['SCENE'] });
    expect(apply((s) => toggleCategory(s, 'video', 'CREATIVE_VIDEO')).categories).toEqual({ CREATIVE_VIDEO: ['SHOE_GIANT'] });
    expect(apply((s) => toggleCategory(s, 'product', 'PRODUCT2')).categories).toEqual({ PRODUCT2: [] });
  });

  it('person and video take several sub-options', () => {
    const person = apply(
      (s) => toggleCategory(s, 'person', 'FULL_BODY'),
      (s) => toggleSubOption(s, 'person', 'FULL_BODY', 'SIMPLE'),
    );
    expect(person.categories).toEqual({ FULL_BODY: ['SCENE', 'SIMPLE'] });
    const video = apply(
      (s) => toggleSubOption(s, 'video', 'CREATIVE_VIDEO', 'SHOE_SAND'),
      (s) => toggleSubOption(s, 'video', 'CREATIVE_VIDEO', 'SHOE_MOUNTAIN'),
    );
    expect(video.categories).toEqual({ CREATIVE_VIDEO: ['SHOE_SAND', 'SHOE_MOUNTAIN'] });
  });

  it('deselecting the last background deselects the category', () => {
    const selection = apply(
      (s) => toggleCategory(s, 'person', 'HALF_BODY'),
      (s) => toggleCategory(s, 'person', 'FULL_BODY'),
      (s) => toggleSubOption(s, 'person', 'HALF_BODY', 'SCENE'),
    );
    expect(selection.categories).toEqual({ FULL_BODY: ['SCENE'] });
  });

  it('a second click on a category turns it off', () => {
    const selection = apply(
      (s) => toggleCategory(s, 'product', 'PRODUCT'),
      (s) => toggleCategory(s, 'product', 'POSTER'),
      (s) => toggleCategory(s, 'product', 'PRODUCT'),
    );
    expect(selection.categories).toEqual({ POSTER: [] });
  });
});

describe('the custom card', () => {
  it('on, it deselects the normal options: model photos keep their categories with the custom background', () => {
    const selection = apply(
      (s) => toggleCategory(s, 'person', 'FULL_BODY'),
      (s) => toggleSubOption(s, 'person', 'FULL_BODY', 'SIMPLE'),
      (s) => toggleCustom(s, 'person'),
    );
    expect(selection).toMatchObject({ custom: true, categories: { FULL_BODY: ['CUSTOM'] } });
    // With nothing chosen, the first category carries it.
    expect(apply((s) => toggleCustom(s, 'person')).categories).toEqual({ HALF_BODY: ['CUSTOM'] });
    expect(apply((s) => toggleCustom(s, 'video')).categories).toEqual({ CREATIVE_VIDEO: ['CUSTOM'] });
  });

  it('product is forced to a poster', () => {
    const selection = apply(
      (s) => toggleCategory(s, 'product', 'PRODUCT'),
      (s) => toggleCategory(s, 'product', 'PRODUCT2'),
      (s) => toggleCustom(s, 'product'),
    );
    expect(selection).toMatchObject({ custom: true, categories: { POSTER: [] } });
  });

  it('a normal option turns it off again', () => {
    const person = apply(
      (s) => toggleCustom(s, 'person'),
      (s) => toggleSubOption(s, 'person', 'HALF_BODY', 'SIMPLE'),
    );
    expect(person).toMatchObject({ custom: false, categories: { HALF_BODY: ['SIMPLE'] } });
    const product = apply(
      (s) => toggleCustom(s, 'product'),
      (s) => toggleCategory(s, 'product', 'PRODUCT'),
    );
    expect(product).toMatchObject({ custom: false, categories: { PRODUCT: ['STUDIO'] } });
  });

  it('off, it clears what it set, and the prompt waits for it', () => {
    const selection = apply(
      (s) => toggleCustom(s, 'video'),
      (s) => ({ ...s, prompt: 'Sneakers on a neon rooftop' }),
      (s) => toggleCustom(s, 'video'),
    );
    expect(selection).toEqual({ custom: false, categories: {}, prompt: 'Sneakers on a neon rooftop' });
  });

  it('outfit has no custom card', () => {
    expect(apply((s) => toggleCustom(s, 'outfit'))).toEqual(EMPTY_SELECTION);
  });
});

describe('page 2 rules', () => {
  it('needs at least one option (params_invalid)', () => {
    expect(selectionProblem(EMPTY_SELECTION, 'product')).toBe('params_invalid');
    // A category of another content type does not count.
    expect(selectionProblem({ ...EMPTY_SELECTION, categories: { PRODUCT: [] } }, 'outfit')).toBe('params_invalid');
  });

  it('a custom choice needs a prompt (prompt_invalid)', () => {
    const custom = apply((s) => toggleCustom(s, 'product'));
    expect(selectionProblem(custom, 'product')).toBe('prompt_invalid');
    expect(selectionProblem({ ...custom, prompt: '   ' }, 'product')).toBe('prompt_invalid');
    expect(selectionProblem({ ...custom, prompt: 'Autumn sale' }, 'product')).toBeNull();
  });

  it('a model photo needs a background type', () => {
    expect(selectionProblem({ ...EMPTY_SELECTION, categories: { HALF_BODY: [] } }, 'person')).toBe('background_type');
    expect(selectionProblem(apply((s) => toggleCategory(s, 'person', 'HALF_BODY')), 'person')).toBeNull();
  });
});

describe('content_config and planned outputs', () => {
  const shoe = { boot_height: 12, heel_height: 3 };

  it('one entry per category and sub-option, with the module, the shoe and the custom text', () => {
    const selection = apply(
      (s) => toggleCategory(s, 'person', 'HALF_BODY'),
      (s) => toggleSubOption(s, 'person', 'HALF_BODY', 'SIMPLE'),
    );
    expect(toContentConfig(selection, 'person', shoe)).toEqual([
      { content_module: 'REAL_PERSON_IMAGE', category: 'HALF_BODY', background: 'SCENE', custom_params: { shoe_params: shoe }, name: 'HALF_BODY:SCENE', selected: true },
      { content_module: 'REAL_PERSON_IMAGE', category: 'HALF_BODY', background: 'SIMPLE', custom_params: { shoe_params: shoe }, name: 'HALF_BODY:SIMPLE', selected: true },
    ]);
    const video = { ...apply((s) => toggleCustom(s, 'video')), prompt: '  On the moon ' };
    expect(toContentConfig(video, 'video', {})).toEqual([
      {
        content_module: 'CREATIVE_VIDEO',
        category: 'CREATIVE_VIDEO',
        creative_scene: 'CUSTOM',
        custom_params: { shoe_params: {}, custom_scene_description: 'On the moon' },
        name: 'CREATIVE_VIDEO:CUSTOM',
        selected: true,
      },
    ]);
  });

  it('PRODUCT makes one output per uploaded view, every other entry one', () => {
    const selection = apply(
      (s) => toggleCategory(s, 'product', 'PRODUCT'),
      (s) => toggleCategory(s, 'product', 'POSTER'),
    );
    const config = toContentConfig(selection, 'product', shoe);
    const outputs = plannedOutputs(config, ['right_45', 'right_side', 'left_side', 'front', 'back', 'bottom']);
    expect(outputs.filter((o) => o.category === 'PRODUCT').map((o) => o.view)).toEqual(['right_45', 'right_side', 'left_side', 'front', 'back', 'bottom']);
    expect(outputs.filter((o) => o.category === 'POSTER')).toEqual([{ name: 'POSTER', category: 'POSTER' }]);
    // An entry removed in the confirmation dialog plans nothing.
    expect(plannedOutputs(config.map((e) => ({ ...e, selected: e.category !== 'PRODUCT' })), ['front'])).toHaveLength(1);
  });
});

describe('pricing', () => {
  it('prices every planned output by its category and adds them up', () => {
    const prices = { ...DEFAULT_PRICES, PRODUCT: 3, POSTER: 5 };
    const { outputs, total } = priceOutputs(
      [
        { name: 'PRODUCT', category: 'PRODUCT', view: 'front' },
        { name: 'PRODUCT', category: 'PRODUCT', view: 'back' },
        { name: 'POSTER', category: 'POSTER' },
      ],
      prices,
    );
    expect(outputs.map((o) => o.cost)).toEqual([3, 3, 5]);
    expect(total).toBe(11);
    expect(priceOutputs([], prices).total).toBe(0);
  });
});
