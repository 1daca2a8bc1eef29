// /shoes (SPEC §2): what SoleStudio makes for shoe sellers, how it works, and sample outputs.
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../layouts/PublicLayout';
import { SampleArt, type SampleKind } from './SampleArt';
import './shoes.css';

const OUTPUTS: SampleKind[] = ['product', 'multi', 'poster', 'color', 'stillLife', 'model', 'video'];
const STEPS = ['s1', 's2', 's3'] as const;

export default function ShoesPage() {
  const { t } = useTranslation();
  return (
    <PublicLayout title={t('routes.shoes')} testId="shoes-page">
      <header className="shoes-intro">
        <h1>{t('shoes.title')}</h1>
        <p>{t('shoes.lead')}</p>
      </header>

      <section aria-labelledby="steps-title">
        <h2 id="steps-title">{t('shoes.stepsTitle')}</h2>
        <ol className="shoes-steps">
          {STEPS.map((step) => (
            <li key={step}>{t(`shoes.steps.${step}`)}</li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="outputs-title">
        <h2 id="outputs-title">{t('shoes.outputsTitle')}</h2>
        <ul className="shoes-outputs">
          {OUTPUTS.map((kind) => {
            const title = t(`shoes.outputs.${kind}.title`);
            return (
              <li key={kind} data-testid={`output-${kind}`}>
                <SampleArt kind={kind} label={t('shoes.sampleLabel', { name: title })} />
                <h3>{title}</h3>
                <p>{t(`shoes.outputs.${kind}.body`)}</p>
              </li>
            );
          })}
        </ul>
      </section>
    </PublicLayout>
  );
}
