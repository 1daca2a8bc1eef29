// What a seller picks on /task page 2 (SPEC §2, §3, §4 "Selection on task screen", §5): the
// category cards of the content type, their background or creative-scene sub-cards, and the
// custom-scene card with its prompt. Pure rules, shared by the page and the server's checks.
import type { Background, Category, ContentModule, ContentType, CreativeScene, ProductPreset, ShoeView } from './enums';
import { CONTENT_MODULE_OF, CONTENT_TYPES, CREATIVE_SCENES, PRODUCT_PRESETS } from './enums';

export type SubOption = Background | CreativeScene | ProductPreset;

/** The category cards each content type offers, in display order. */
export const CATEGORIES_OF: Record<ContentType, readonly Category[]> = {
  person: ['HALF_BODY', 'FULL_BODY'],
  product: ['PRODUCT', 'PRODUCT2', 'POSTER'],
  outfit: ['OUTFIT_STILL_LIFE', 'OUTFIT_COLOR'],
  video: ['CREATIVE_VIDEO'],
};

/** The module a category belongs to (SPEC §3). */
export function contentModuleOf(category: Category): ContentModule {
  const type = CONTENT_TYPES.find((t) => CATEGORIES_OF[t].includes(category))!;
  return CONTENT_MODULE_OF[type];
}

const NAMED_SCENES = CREATIVE_SCENES.filter((scene) => scene !== 'CUSTOM');

/** A category's sub-cards: backgrounds for model photos, looks for product shots, the named scenes for video. */
export function subOptionsOf(category: Category): readonly SubOption[] {
  if (category === 'HALF_BODY' || category === 'FULL_BODY') return ['SCENE', 'SIMPLE'];
  if (category === 'PRODUCT') return PRODUCT_PRESETS;
  if (category === 'CREATIVE_VIDEO') return NAMED_SCENES;
  return [];
}

/** Content types with the custom-scene card (product turns it into a poster). */
export function hasCustomCard(type: ContentType): boolean {
  return type !== 'outfit';
}

export interface Selection {
  /** Chosen categories with their chosen sub-options (none for categories without sub-cards). */
  categories: Partial<Record<Category, SubOption[]>>;
  custom: boolean;
  /** The custom-scene description; kept while the card is off, used only while it is on. */
  prompt: string;
}

export const EMPTY_SELECTION: Selection = { categories: {}, custom: false, prompt: '' };

function chosen(selection: Selection): Category[] {
  return Object.keys(selection.categories) as Category[];
}

/** The custom card off, and every option it had set removed with it. */
function withoutCustom(selection: Selection, type: ContentType): Selection {
  if (!selection.custom) return selection;
  if (type === 'product') return { ...selection, custom: false, categories: {} };
  const categories: Selection['categories'] = {};
  for (const category of chosen(selection)) {
    const subs = selection.categories[category]!.filter((sub) => sub !== 'CUSTOM');
    if (subs.length > 0) categories[category] = subs;
  }
  return { ...selection, custom: false, categories };
}

/** A category card: on with its first sub-card (or the custom scene), or off. */
export function toggleCategory(selection: Selection, type: ContentType, category: Category): Selection {
  if (selection.categories[category]) {
    const { [category]: _removed, ...rest } = selection.categories;
    const next = { ...selection, categories: rest };
    // The custom card needs something to carry it.
    return Object.keys(rest).length === 0 && selection.custom ? { ...next, custom: false } : next;
  }
  if (selection.custom && type !== 'product') {
    return { ...selection, categories: { ...selection.categories, [category]: ['CUSTOM'] } };
  }
  const base = withoutCustom(selection, type);
  const first = subOptionsOf(category)[0];
  return { ...base, categories: { ...base.categories, [category]: first ? [first] : [] } };
}

/** A background or scene sub-card; several may be on. The last one off turns its category off. */
export function toggleSubOption(selection: Selection, type: ContentType, category: Category, sub: SubOption): Selection {
  const base = withoutCustom(selection, type);
  const current = base.categories[category] ?? [];
  if (current.includes(sub)) {
    const left = current.filter((s) => s !== sub);
    if (left.length > 0) return { ...base, categories: { ...base.categories, [category]: left } };
    const { [category]: _removed, ...rest } = base.categories;
    return { ...base, categories: rest };
  }
  return { ...base, categories: { ...base.categories, [category]: [...current, sub] } };
}

/**
 * The custom-scene card. On, it replaces the normal options: model photos keep their chosen
 * categories (or the first) with the custom background, video takes the custom scene, and
 * product becomes a poster. Off, what it set is cleared.
 */
export function toggleCustom(selection: Selection, type: ContentType): Selection {
  if (!hasCustomCard(type)) return selection;
  if (selection.custom) return withoutCustom(selection, type);
  if (type === 'product') return { ...selection, custom: true, categories: { POSTER: [] } };
  const categories = chosen(selection).length > 0 ? chosen(selection) : [CATEGORIES_OF[type][0]!];
  return { ...selection, custom: true, categories: Object.fromEntries(categories.map((c) => [c, ['CUSTOM']])) };
}

export type SelectionProblem = 'params_invalid' | 'prompt_invalid' | 'background_type';

/** SPEC §5's task rules for page 2, in the order the seller meets them. */
export function selectionProblem(selection: Selection, type: ContentType): SelectionProblem | null {
  const categories = chosen(selection);
  if (categories.length === 0 || categories.some((c) => !CATEGORIES_OF[type].includes(c))) return 'params_invalid';
  if (selection.custom && selection.prompt.trim() === '') return 'prompt_invalid';
  if (type === 'person' && categories.some((c) => (selection.categories[c] ?? []).length === 0)) return 'background_type';
  return null;
}

/** Shoe measurements as the server names them (SPEC §3). */
export interface ShoeParamsPayload {
  boot_height?: number;
  heel_height?: number;
  boot_circumference?: number;
  ankle_circumference?: number;
}

export interface ContentConfigEntry {
  content_module: ContentModule;
  category: Category;
  background?: Background;
  creative_scene?: CreativeScene;
  /** PRODUCT only: the look (a studio shot when absent). */
  preset?: ProductPreset;
  custom_params: { shoe_params: ShoeParamsPayload; custom_scene_description?: string };
  /** Unique within a task: the output's key in config_history. */
  name: string;
  selected: boolean;
  /** PRODUCT only: the views to make shots of, when not every uploaded one (the seller removed some). */
  views?: ShoeView[];
}

/** One entry per chosen category and sub-option, as `content_config` carries them. */
export function toContentConfig(selection: Selection, type: ContentType, shoeParams: ShoeParamsPayload): ContentConfigEntry[] {
  const module = CONTENT_MODULE_OF[type];
  const description = selection.custom ? selection.prompt.trim() : undefined;
  const entries: ContentConfigEntry[] = [];
  for (const category of CATEGORIES_OF[type]) {
    const subs = selection.categories[category];
    if (!subs) continue;
    for (const sub of subs.length > 0 ? subs : [undefined]) {
      entries.push({
        content_module: module,
        category,
        ...(sub && type === 'person' ? { background: sub as Background } : {}),
        ...(sub && type === 'video' ? { creative_scene: sub as CreativeScene } : {}),
        ...(sub && category === 'PRODUCT' ? { preset: sub as ProductPreset } : {}),
        custom_params: { shoe_params: shoeParams, ...(description ? { custom_scene_description: description } : {}) },
        name: sub ? `${category}:${sub}` : category,
        selected: true,
      });
    }
  }
  return entries;
}

export interface PlannedOutput {
  /** The config entry's name. */
  name: string;
  category: Category;
  /** For PRODUCT, the view this output is made from. */
  view?: ShoeView;
}

/** What a task will make: PRODUCT one output per uploaded view, every other entry one (SPEC §2). */
export function plannedOutputs(config: readonly ContentConfigEntry[], uploadedViews: readonly ShoeView[]): PlannedOutput[] {
  return config
    .filter((entry) => entry.selected)
    .flatMap((entry): PlannedOutput[] =>
      entry.category === 'PRODUCT'
        ? uploadedViews
            .filter((view) => !entry.views || entry.views.includes(view))
            .map((view) => ({ name: entry.name, category: entry.category, view }))
        : [{ name: entry.name, category: entry.category }],
    );
}

/**
 * A rejected task's config for its retry: product shots keep only the views the retry still has
 * (a rejected optional view may be left out), and an entry left with none is deselected.
 */
export function retryConfig(config: readonly ContentConfigEntry[], views: readonly ShoeView[]): ContentConfigEntry[] {
  return config.map((entry) => {
    if (entry.category !== 'PRODUCT' || !entry.views) return entry;
    const left = entry.views.filter((view) => views.includes(view));
    return left.length > 0 ? { ...entry, views: left } : { ...entry, views: undefined, selected: false };
  });
}

/**
 * The config without the outputs the seller removed in the confirmation dialog: a PRODUCT entry
 * keeps the views left, any other entry is deselected.
 */
export function withoutOutputs(
  config: readonly ContentConfigEntry[],
  removed: readonly PlannedOutput[],
  uploadedViews: readonly ShoeView[],
): ContentConfigEntry[] {
  return config.map((entry) => {
    const gone = removed.filter((output) => output.name === entry.name);
    if (gone.length === 0) return entry;
    if (entry.category !== 'PRODUCT') return { ...entry, selected: false };
    const views = (entry.views ?? uploadedViews).filter((view) => !gone.some((output) => output.view === view));
    return views.length > 0 ? { ...entry, views } : { ...entry, selected: false };
  });
}

/** Tokens per output of each category; the server's `GET /content/config` carries the ones in force. */
export type Prices = Readonly<Record<Category, number>>;

export const DEFAULT_PRICES: Prices = {
  HALF_BODY: 8,
  FULL_BODY: 8,
  PRODUCT: 2,
  PRODUCT2: 4,
  POSTER: 4,
  OUTFIT_STILL_LIFE: 4,
  OUTFIT_COLOR: 3,
  CREATIVE_VIDEO: 15,
};

export interface PricedOutput extends PlannedOutput {
  cost: number;
}

/** Each planned output with its cost, and the total the confirmation dialog weighs against the balance. */
export function priceOutputs(outputs: readonly PlannedOutput[], prices: Prices): { outputs: PricedOutput[]; total: number } {
  const priced = outputs.map((output) => ({ ...output, cost: prices[output.category] }));
  return { outputs: priced, total: priced.reduce((sum, output) => sum + output.cost, 0) };
}
