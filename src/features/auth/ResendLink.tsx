// "Send the link again" with the 60 s wait between sends (SPEC §8 resend success or failure).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RESEND_COOLDOWN_S } from '../../../contract/auth';
import { FormMessage } from '../../components/form/Field';
import { resendVerification } from './api/resend-verification';
import { messageOf, waitOf } from './errors';
import { useCountdown } from './useCountdown';

export function ResendLink({ email, startWaiting = false }: { email: string; startWaiting?: boolean }) {
  const { t } = useTranslation();
  const [remaining, start] = useCountdown(startWaiting ? RESEND_COOLDOWN_S : 0);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const [sending, setSending] = useState(false);

  const send = async () => {
    setSending(true);
    try {
      await resendVerification(email);
      setResult({ ok: true, message: t('auth.resend.success') });
      start(RESEND_COOLDOWN_S);
    } catch (error) {
      setResult({ ok: false, message: t('auth.resend.failed', { message: messageOf(error) }) });
      const wait = waitOf(error);
      if (wait) start(wait);
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="resend">
      {result ? <FormMessage tone={result.ok ? 'success' : 'error'}>{result.message}</FormMessage> : null}
      <button type="button" className="link-button" disabled={sending || remaining > 0} onClick={send}>
        {remaining > 0 ? t('auth.resend.wait', { seconds: remaining }) : t('auth.resend.button')}
      </button>
    </div>
  );
}
