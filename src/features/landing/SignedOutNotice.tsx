// Tells a seller the server signed out why it did: their password was changed on another device
// (SPEC §2 "/"). Shown on the landing page, where a signed-out seller lands, until they sign in
// again or dismiss it.
import { useAtom, useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { accountDialogAtom } from '../../components/dialogs';
import { signedOutReasonAtom } from '../../lib/store';

export function SignedOutNotice() {
  const { t } = useTranslation();
  const [reason, setReason] = useAtom(signedOutReasonAtom);
  const openDialog = useSetAtom(accountDialogAtom);
  if (reason !== 'password_changed') return null;
  return (
    <div className="signed-out-notice" role="status" data-testid="signed-out-notice">
      <p>{t('landing.signedOut.passwordChanged')}</p>
      <div className="signed-out-notice__actions">
        <Button size="small" onClick={() => openDialog('login')}>
          {t('nav.login')}
        </Button>
        <Button size="small" fill="clear" onClick={() => setReason(null)}>
          {t('landing.signedOut.dismiss')}
        </Button>
      </div>
    </div>
  );
}
