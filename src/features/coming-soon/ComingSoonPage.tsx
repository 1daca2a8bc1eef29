// The honest state of a screen that a later update fills: its name and that it is coming.
import { IonButton } from '@ionic/react';
import { useTranslation } from 'react-i18next';
import type { RouteDef } from '../../config/paths';
import { paths } from '../../config/paths';
import { HomeLayout } from '../../layouts/HomeLayout';
import { PublicLayout } from '../../layouts/PublicLayout';
import './coming-soon.css';

export default function ComingSoonPage({ route }: { route: RouteDef }) {
  const { t } = useTranslation();
  const name = t(route.title);
  const Layout = route.auth ? HomeLayout : PublicLayout;
  return (
    <Layout title={name} testId={`page-${route.name}`}>
      <section className="coming-soon" aria-labelledby={`coming-soon-${route.name}`}>
        <h1 id={`coming-soon-${route.name}`}>{name}</h1>
        <p className="coming-soon__badge">{t('comingSoon.title')}</p>
        <p>{t('comingSoon.body', { name })}</p>
        <IonButton routerLink={route.auth ? paths.home : paths.landing} fill="outline">
          {t('comingSoon.back')}
        </IonButton>
      </section>
    </Layout>
  );
}
