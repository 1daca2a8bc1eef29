// /home (SPEC §2 workspace home): four tiles that open /task for a content type, and the way
// to material and task history. A tile none of whose categories this server's engines can make
// says so, with the reason, before the seller takes a single photo.
import { imagesOutline, personOutline, shirtOutline, timeOutline, videocamOutline, pricetagOutline } from 'ionicons/icons';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import '../../lib/account-texts';
import type { CategoryOffer } from '../../../contract/content';
import { CONTENT_TYPES, type ContentType } from '../../../contract/enums';
import { Icon } from '../../components/Icon';
import { paths, taskPath } from '../../config/paths';
import { HomeLayout } from '../../layouts/HomeLayout';
import { currentLocale } from '../../lib/i18n';
import { loadContentConfig } from '../../capture/api/content-config';
import { unavailableReason } from './availability';
import { PendingTasks } from './PendingTasks';
import './home.css';

const ICONS: Record<ContentType, string> = {
  person: personOutline,
  product: pricetagOutline,
  outfit: shirtOutline,
  video: videocamOutline,
};

export default function HomePage() {
  const { t } = useTranslation();
  const [offers, setOffers] = useState<readonly CategoryOffer[]>([]);
  // The styles and prices (kept on the device for a task page opened later without network),
  // and what this server can make at all.
  useEffect(() => {
    let current = true;
    void loadContentConfig(currentLocale())
      .then(({ catalogue }) => current && setOffers(catalogue.categories))
      .catch(() => {});
    return () => {
      current = false;
    };
  }, []);
  return (
    <HomeLayout title={t('workspace.title')} testId="home-page">
      <h1>{t('workspace.title')}</h1>
      <p className="home__lead">{t('workspace.lead')}</p>
      <ul className="home__tiles">
        {CONTENT_TYPES.map((type) => {
          const reason = unavailableReason(type, offers);
          const content = (
            <>
              <Icon icon={ICONS[type]} />
              <span className="home__tile-title">{t(`workspace.tiles.${type}.title`)}</span>
              <span className="home__tile-body">{t(`workspace.tiles.${type}.body`)}</span>
            </>
          );
          return (
            <li key={type}>
              {reason === null ? (
                <Link className="home__tile" to={taskPath(type)} data-testid={`tile-${type}`}>
                  {content}
                </Link>
              ) : (
                <div className="home__tile home__tile--off" aria-disabled="true" data-testid={`tile-${type}`} data-available="false">
                  {content}
                  <span className="home__tile-reason" role="note">
                    {t('workspace.unavailable', { reason })}
                  </span>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      <PendingTasks />
      <nav className="home__links" aria-label={t('workspace.title')}>
        <Link to={paths.material}>
          <Icon icon={imagesOutline} /> {t('workspace.materials')}
        </Link>
        <Link to={paths.task_history}>
          <Icon icon={timeOutline} /> {t('workspace.tasks')}
        </Link>
      </nav>
    </HomeLayout>
  );
}
