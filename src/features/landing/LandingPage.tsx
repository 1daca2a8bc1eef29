// The landing page (SPEC §2 "/"): what SoleStudio does, the 50000+ sellers claim, a link card
// to /shoes, the trends card (not a link) and sample comments from sellers.
import { arrowForward, starSharp, trendingUpOutline } from 'ionicons/icons';
import { useAtomValue, useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';
import { PublicLayout } from '../../layouts/PublicLayout';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { ShoeGlyph } from '../../components/ShoeGlyph';
import { accountDialogAtom } from '../../components/dialogs';
import { sessionTokenAtom } from '../../lib/store';
import { SignedOutNotice } from './SignedOutNotice';
import './landing.css';

const COMMENTS = ['c1', 'c2', 'c3'] as const;

export default function LandingPage() {
  const { t } = useTranslation();
  const openDialog = useSetAtom(accountDialogAtom);
  const signedIn = useAtomValue(sessionTokenAtom) !== null;
  return (
    <PublicLayout title="" testId="landing-page">
      <SignedOutNotice />
      <section className="hero" aria-labelledby="hero-title">
        <div className="hero__text">
          <h1 id="hero-title">{t('landing.title')}</h1>
          <p className="hero__lead">{t('landing.lead')}</p>
          <p className="hero__claim" data-testid="users-claim">
            <strong>{t('landing.users')}</strong> <span>{t('landing.usersNote')}</span>
          </p>
          <div className="hero__actions">
            <Button
              size="large"
              testId="start-button"
              {...(signedIn ? { to: paths.home } : { onClick: () => openDialog('register') })}
            >
              {t('landing.start')}
            </Button>
          </div>
        </div>
        <div className="hero__art" aria-hidden="true">
          <div className="hero__disc" />
          <ShoeGlyph className="hero__shoe" upper="url(#hero-gradient)" />
          <svg width="0" height="0" className="hero__defs">
            <defs>
              <linearGradient id="hero-gradient" x1="0" y1="0" x2="1" y2="1">
                <stop offset="0" stopColor="#fdba74" />
                <stop offset="1" stopColor="#ea580c" />
              </linearGradient>
            </defs>
          </svg>
        </div>
      </section>

      <section className="landing-cards">
        <Link to={paths.shoes} className="landing-card landing-card--link" data-testid="shoes-card">
          <ShoeGlyph className="landing-card__glyph" upper="var(--ion-color-primary)" laces="var(--ion-background-color)" />
          <h2>{t('landing.shoesCard.title')}</h2>
          <p>{t('landing.shoesCard.body')}</p>
          <span className="landing-card__cta">
            {t('landing.shoesCard.cta')} <Icon icon={arrowForward} />
          </span>
        </Link>
        <article className="landing-card" data-testid="trends-card">
          <Icon className="landing-card__icon" icon={trendingUpOutline} />
          <h2>{t('landing.trendsCard.title')}</h2>
          <p>{t('landing.trendsCard.body')}</p>
        </article>
      </section>

      <section className="comments" aria-labelledby="comments-title">
        <h2 id="comments-title">{t('landing.commentsTitle')}</h2>
        <ul>
          {COMMENTS.map((id) => (
            <li key={id}>
              <figure>
                <div className="comments__stars" aria-hidden="true">
                  {[0, 1, 2, 3, 4].map((star) => (
                    <Icon key={star} icon={starSharp} />
                  ))}
                </div>
                <blockquote>{t(`landing.comments.${id}.text`)}</blockquote>
                <figcaption>{t(`landing.comments.${id}.author`)}</figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </section>
    </PublicLayout>
  );
}
