// Which engine makes each option, and what the configured engines can offer (DESIGN §4
// Engines): the studio engine makes product shots, cards, posters, outfit cards and themed
// videos on this machine; model photos, custom scenes and custom videos need the remote AI
// engine. GET /content/config is derived from this, and generate refuses what it rules out.
import type { Background, Category, CreativeScene } from '../../contract/enums';
import { CATEGORIES } from '../../contract/enums';
import type { ContentCatalogue } from '../../contract/content';
import { DEFAULT_PRICES, CATEGORIES_OF, contentModuleOf, subOptionsOf, type Prices } from '../../contract/selection';
import type { Locale } from '../../contract/locales';
import { translate, type MessageKey } from '../lib/i18n';

export type EngineName = 'studio' | 'remote';

export interface EngineSupport {
  /** The remote engine can make images (model photos, custom backgrounds and scenes). */
  aiImages: boolean;
  /** The remote engine can make videos (custom creative scenes). */
  aiVideo: boolean;
  /** ffmpeg was found, so the studio engine can make videos. */
  ffmpeg: boolean;
}

/** What one config entry asks for. */
export interface OptionRequest {
  category: Category;
  background?: Background | undefined;
  creativeScene?: CreativeScene | undefined;
  custom: boolean;
}

export type Routing = { engine: EngineName } | { engine: null; reason: MessageKey };

const PERSON: readonly Category[] = CATEGORIES_OF.person;

/** The engine that makes this option, or why none can. */
export function routeOption(option: OptionRequest, support: EngineSupport): Routing {
  const remote = (needs: 'aiImages' | 'aiVideo'): Routing =>
    support[needs] ? { engine: 'remote' } : { engine: null, reason: needs === 'aiImages' ? 'NEEDS_AI_IMAGES' : 'NEEDS_AI_VIDEO' };
  if (PERSON.includes(option.category)) return remote('aiImages');
  if (option.category === 'CREATIVE_VIDEO') {
    if (option.custom || option.creativeScene === 'CUSTOM') return remote('aiVideo');
    if (support.ffmpeg) return { engine: 'studio' };
    return support.aiVideo ? { engine: 'remote' } : { engine: null, reason: 'NEEDS_FFMPEG' };
  }
  // The studio engine sets a poster's copy from the description; other studio layouts have no
  // place for one, so a custom description there would be a promise it cannot keep.
  if (option.custom && option.category !== 'POSTER') return { engine: null, reason: 'CUSTOM_NOT_FOR_CATEGORY' };
  return { engine: 'studio' };
}

function availability(routing: Routing, locale: Locale) {
  return routing.engine ? { available: true, reason: null } : { available: false, reason: translate(locale, routing.reason) };
}

/** Every category with its price, sub-options and custom card, available or with the reason why not. */
export function catalogue(support: EngineSupport, locale: Locale, prices: Prices = DEFAULT_PRICES): ContentCatalogue {
  return {
    categories: CATEGORIES.map((category) => {
      const base = routeOption({ category, custom: false }, support);
      const isPerson = PERSON.includes(category);
      const subs = subOptionsOf(category);
      const customSub = isPerson ? ['CUSTOM' as const] : category === 'CREATIVE_VIDEO' ? ['CUSTOM' as const] : [];
      return {
        category,
        content_module: contentModuleOf(category),
        price: prices[category],
        ...availability(base, locale),
        sub_options: [...subs, ...customSub].map((value) => {
          const custom = value === 'CUSTOM';
          const option: OptionRequest = isPerson
            ? { category, background: value as Background, custom }
            : category === 'CREATIVE_VIDEO'
              ? { category, creativeScene: value as CreativeScene, custom }
              : { category, custom };
          return { value, ...availability(routeOption(option, support), locale) };
        }),
        custom: availability(routeOption({ category, custom: true }, support), locale),
      };
    }),
  };
}
