// /feedback (SPEC §2, §5): a message to the SoleStudio team, from visitors and signed-in sellers.
import '../../lib/account-texts';
import { useId, useState, type FormEvent } from 'react';
import { IonButton } from '@ionic/react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { FEEDBACK_MAX, feedbackRequestSchema } from '../../../contract/auth';
import { FormMessage } from '../../components/form/Field';
import { useForm } from '../../components/form/useForm';
import '../../components/form/form.css';
import { paths } from '../../config/paths';
import { HomeLayout } from '../../layouts/HomeLayout';
import { PublicLayout } from '../../layouts/PublicLayout';
import { ApiError } from '../../lib/api-client';
import { i18next } from '../../lib/i18n';
import { sessionTokenAtom } from '../../lib/store';
import { sendFeedback } from './api/send-feedback';
import './feedback.css';

export default function FeedbackPage() {
  const { t } = useTranslation();
  const signedIn = useAtomValue(sessionTokenAtom) !== null;
  const Layout = signedIn ? HomeLayout : PublicLayout;
  const id = useId();
  const form = useForm(feedbackRequestSchema, { content: '' });
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [sending, setSending] = useState(false);
  const error = form.error('content');
  const content = String(form.values.content);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate();
    if (!body || sending) return;
    setSending(true);
    setResult(null);
    try {
      await sendFeedback(body);
      setResult({ ok: true, text: t('feedback.success') });
      form.reset({ content: '' });
    } catch (failure) {
      const message = failure instanceof ApiError ? failure.message : i18next.t('common.errors.internal_server_error');
      setResult({ ok: false, text: t('feedback.failed', { message }) });
    } finally {
      setSending(false);
    }
  };

  return (
    <Layout title={t('feedback.title')} testId="feedback-page">
      <section className="feedback">
        <h1>{t('feedback.title')}</h1>
        <p>{t('feedback.lead')}</p>
        <form className="auth-form" onSubmit={submit} noValidate>
          <div className={`field${error ? ' field--invalid' : ''}`}>
            <label htmlFor={id}>{t('feedback.content')}</label>
            <textarea
              id={id}
              value={content}
              maxLength={FEEDBACK_MAX}
              onChange={(event) => form.set('content', event.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={`${id}-help`}
            />
            <p id={`${id}-help`} className={error ? 'field__error' : 'field__hint'}>
              {error ?? t('feedback.counter', { count: content.length, max: FEEDBACK_MAX })}
            </p>
          </div>
          {result ? <FormMessage tone={result.ok ? 'success' : 'error'}>{result.text}</FormMessage> : null}
          <IonButton type="submit" disabled={sending}>
            {sending ? t('form.sending') : t('feedback.submit')}
          </IonButton>
        </form>
        <p className="feedback__contact">
          <Link to={paths.contact_us}>{t('feedback.contact')}</Link>
        </p>
      </section>
    </Layout>
  );
}
