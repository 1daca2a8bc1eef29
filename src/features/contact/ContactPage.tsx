// /contact_us (SPEC §2): how to reach SoleStudio.
import { chatbubbleEllipsesOutline, mailOutline } from 'ionicons/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { SUPPORT_EMAIL, paths } from '../../config/paths';
import { PublicLayout } from '../../layouts/PublicLayout';
import { Icon } from '../../components/Icon';
import './contact.css';

export default function ContactPage() {
  const { t } = useTranslation();
  return (
    <PublicLayout title={t('contact.title')} testId="contact-page">
      <h1>{t('contact.title')}</h1>
      <p className="contact-lead">{t('contact.lead')}</p>
      <dl className="contact-list">
        <div>
          <dt>
            <Icon icon={mailOutline} /> {t('contact.emailLabel')}
          </dt>
          <dd>
            <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
          </dd>
        </div>
        <div>
          <dt>
            <Icon icon={chatbubbleEllipsesOutline} /> {t('contact.feedbackLabel')}
          </dt>
          <dd>
            <Link to={paths.feedback}>{t('contact.feedbackLink')}</Link>
          </dd>
        </div>
      </dl>
      <p>{t('contact.responseTime')}</p>
    </PublicLayout>
  );
}
