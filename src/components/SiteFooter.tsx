import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { legalPath, paths } from '../config/paths';
import { currentLocale } from '../lib/i18n';
import './SiteFooter.css';

export function SiteFooter() {
  const { t } = useTranslation();
  const locale = currentLocale();
  return (
    <footer className="site-footer">
      <nav aria-label={t('footer.contact')}>
        <a href={legalPath(locale, 'terms')}>{t('footer.terms')}</a>
        <a href={legalPath(locale, 'privacy')}>{t('footer.privacy')}</a>
        <Link to={paths.contact_us}>{t('footer.contact')}</Link>
      </nav>
      <p>{t('footer.rights', { year: new Date().getFullYear() })}</p>
    </footer>
  );
}
