import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { paths } from '../../config/paths';
import { PublicLayout } from '../../layouts/PublicLayout';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <PublicLayout title={t('routes.not_found')} testId="not-found-page">
      <section style={{ textAlign: 'center', margin: '48px auto', maxWidth: 560 }}>
        <h1>{t('notFound.title')}</h1>
        <p>{t('notFound.body')}</p>
        <Button to={paths.landing}>{t('notFound.back')}</Button>
      </section>
    </PublicLayout>
  );
}
