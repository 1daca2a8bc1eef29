// The styles on /task page 2 (SPEC §2, §4 "Selection on task screen"): a card per category of the
// content type, background or scene chips under a chosen card, and the custom-scene card with its
// prompt. What can be chosen, at what price, and why not, comes from GET /content/config.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkmarkCircle, ellipseOutline } from 'ionicons/icons';
import type { CategoryOffer } from '../../../contract/content';
import type { Category, ContentType } from '../../../contract/enums';
import {
  CATEGORIES_OF,
  hasCustomCard,
  toggleCategory,
  toggleCustom,
  toggleSubOption,
  type Selection,
  type SubOption,
} from '../../../contract/selection';
import { Icon } from '../../components/Icon';
import { PROMPT_MAX } from '../../../contract/content';

export interface StylesSectionProps {
  type: ContentType;
  selection: Selection;
  offers: readonly CategoryOffer[];
  /**
   * A choice, as a change to the selection: applied to the stored selection, so a second tap that
   * comes before the first has shown builds on it.
   */
  onChange: (change: (selection: Selection) => Selection) => void;
  onPrompt: (prompt: string) => void;
}

/** The label of a background, a product look or a scene. */
export function useSubOptionLabel() {
  const { t } = useTranslation();
  return (category: Category, sub: SubOption) =>
    category === 'CREATIVE_VIDEO'
      ? t(`task.scenes.${sub as 'CUSTOM'}`)
      : category === 'PRODUCT'
        ? t(`task.presets.${sub as 'STUDIO'}`)
        : t(`task.backgrounds.${sub as 'CUSTOM'}`);
}

export function StylesSection({ type, selection, offers, onChange, onPrompt }: StylesSectionProps) {
  const { t } = useTranslation();
  const subLabel = useSubOptionLabel();
  // The description as it is typed: shown from here while the field has focus, so the caret stays
  // put while each change is stored.
  const [typing, setTyping] = useState<string | null>(null);
  const offerOf = (category: Category) => offers.find((offer) => offer.category === category);
  const mine = CATEGORIES_OF[type].map(offerOf).filter((offer): offer is CategoryOffer => offer !== undefined);
  const customOffer = mine.find((offer) => offer.custom.available);
  const customReason = customOffer ? null : (mine.find((offer) => offer.custom.reason)?.custom.reason ?? null);

  return (
    <section className="styles" data-testid="task-page-2" aria-labelledby="styles-step">
      <p className="task__step" id="styles-step">
        {t('task.stepStyles')}
      </p>
      <p className="styles__lead">{t('task.styles.lead')}</p>
      <ul className="styles__cards">
        {CATEGORIES_OF[type].map((category) => {
          const offer = offerOf(category);
          const on = selection.categories[category] !== undefined;
          const blockedByCustom = selection.custom && !offer?.custom.available && !on;
          const disabled = !offer?.available || blockedByCustom;
          const reason = !offer?.available ? offer?.reason : blockedByCustom ? offer?.custom.reason : null;
          const subs = (offer?.sub_options ?? []).filter((sub) => sub.value !== 'CUSTOM');
          const price = offer?.price ?? 0;
          return (
            <li key={category} className={`style-card${on ? ' style-card--on' : ''}${disabled ? ' style-card--disabled' : ''}`} data-testid={`category-${category}`}>
              <button
                type="button"
                role="checkbox"
                aria-checked={on}
                aria-disabled={disabled && !on}
                aria-describedby={reason ? `reason-${category}` : undefined}
                className="style-card__main"
                onClick={() => {
                  if (disabled && !on) return;
                  onChange((current) => toggleCategory(current, type, category));
                }}
              >
                <Icon icon={on ? checkmarkCircle : ellipseOutline} className="style-card__check" />
                <span className="style-card__title">{t(`task.categories.${category}.title`)}</span>
                <span className="style-card__body">{t(`task.categories.${category}.body`)}</span>
                <span className="style-card__price">
                  {t(category === 'PRODUCT' ? 'task.styles.perView' : 'task.styles.perOutput', { count: price })}
                </span>
              </button>
              {reason ? (
                <p className="style-card__reason" id={`reason-${category}`}>
                  {t('task.styles.unavailable', { reason })}
                </p>
              ) : null}
              {on && subs.length > 0 && !selection.custom ? (
                <fieldset className="style-card__subs">
                  <legend>{t(category === 'CREATIVE_VIDEO' ? 'task.styles.scenes' : category === 'PRODUCT' ? 'task.styles.presets' : 'task.styles.backgrounds')}</legend>
                  {subs.map((sub) => {
                    const picked = selection.categories[category]!.includes(sub.value);
                    const off = !sub.available && !picked;
                    return (
                      <button
                        key={sub.value}
                        type="button"
                        role="checkbox"
                        aria-checked={picked}
                        aria-disabled={off}
                        title={sub.reason ?? undefined}
                        className={`chip${picked ? ' chip--on' : ''}`}
                        data-testid={`sub-${category}-${sub.value}`}
                        onClick={() => {
                          if (off) return;
                          onChange((current) => toggleSubOption(current, type, category, sub.value));
                        }}
                      >
                        {subLabel(category, sub.value)}
                      </button>
                    );
                  })}
                </fieldset>
              ) : null}
            </li>
          );
        })}
      </ul>
      {hasCustomCard(type) ? (
        <div className={`style-card style-card--custom${selection.custom ? ' style-card--on' : ''}`} data-testid="custom-card">
          <button
            type="button"
            role="checkbox"
            aria-checked={selection.custom}
            aria-disabled={!customOffer && !selection.custom}
            aria-describedby={customReason ? 'reason-custom' : undefined}
            className="style-card__main"
            onClick={() => {
              if (!customOffer && !selection.custom) return;
              onChange((current) => toggleCustom(current, type));
            }}
          >
            <Icon icon={selection.custom ? checkmarkCircle : ellipseOutline} className="style-card__check" />
            <span className="style-card__title">{t('task.styles.custom.title')}</span>
            <span className="style-card__body">{t(type === 'product' ? 'task.styles.custom.productBody' : 'task.styles.custom.body')}</span>
          </button>
          {customReason ? (
            <p className="style-card__reason" id="reason-custom">
              {t('task.styles.unavailable', { reason: customReason })}
            </p>
          ) : null}
          <div className="field">
            <label htmlFor="custom-prompt">{t('task.styles.custom.prompt')}</label>
            <textarea
              id="custom-prompt"
              rows={3}
              maxLength={PROMPT_MAX}
              disabled={!selection.custom}
              placeholder={t('task.styles.custom.placeholder')}
              value={typing ?? selection.prompt}
              aria-describedby={selection.custom ? undefined : 'custom-prompt-off'}
              onChange={(event) => {
                setTyping(event.target.value);
                onPrompt(event.target.value);
              }}
              onBlur={() => setTyping(null)}
            />
            {selection.custom ? null : (
              <p className="field__hint" id="custom-prompt-off">
                {t('task.styles.custom.off')}
              </p>
            )}
          </div>
        </div>
      ) : null}
    </section>
  );
}
