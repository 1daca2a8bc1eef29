// /home (SPEC §2 workspace home): four tiles that open /task for a content type, and the way
// to material and task history.
import { imagesOutline, personOutline, shirtOutline, timeOutline, videocamOutline, pricetagOutline } from 'ionicons/icons';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import '../../lib/account-texts';
import { CONTENT_TYPES, type ContentType } from '../../../contract/enums';
import { Icon } from '../../components/Icon';
import { paths, taskPath } from '../../config/paths';
import { HomeLayout } from '../../layouts/HomeLayout';
import { currentLocale } from '../../lib/i18n';
import { loadContentConfig } from '../../capture/api/content-config';
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
  // The styles and prices, kept on the device for a task page opened later without network.
  useEffect(() => {
    if (navigator.onLine) void loadContentConfig(currentLocale()).catch(() => {});
  }, []);
  return (
    <HomeLayout title={t('workspace.title')} testId="home-page">
      <h1>{t('workspace.title')}</h1>
      <p className="home__lead">{t('workspace.lead')}</p>
      <ul className="home__tiles">
        {CONTENT_TYPES.map((type) => (
          <li key={type}>
            <Link className="home__tile" to={taskPath(type)} data-testid={`tile-${type}`}>
              <Icon icon={ICONS[type]} />
              <span className="home__tile-title">{t(`workspace.tiles.${type}.title`)}</span>
              <span className="home__tile-body">{t(`workspace.tiles.${type}.body`)}</span>
            </Link>
          </li>
        ))}
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
