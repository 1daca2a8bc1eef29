// The language menu: a native select, so phones show their own picker and screen readers and
// keyboards get a control they know. Choosing a language reloads the page in it.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCALES, isLocale } from '../../contract/locales';
import { changeLocale, currentLocale } from '../lib/i18n';
import './LanguageSelect.css';

export function LanguageSelect({ variant = 'toolbar' }: { variant?: 'toolbar' | 'menu' }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className={`language-select language-select--${variant}`}>
      <label htmlFor={id} className={variant === 'toolbar' ? 'visually-hidden' : undefined}>
        {t('language.label')}
      </label>
      <select
        id={id}
        value={currentLocale()}
        onChange={(event) => {
          if (isLocale(event.target.value)) changeLocale(event.target.value);
        }}
        data-testid={`language-select-${variant}`}
      >
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {t(`language.names.${locale}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
