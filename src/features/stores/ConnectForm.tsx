// Connecting a store on one platform: its keys as the platform names them (secret ones typed as
// passwords), checked live by the server before they are kept; a refusal says what to fix and
// where to make a new key. The demo store needs no keys, only a press.
import { useId, useState, type FormEvent } from 'react';
import { IonButton } from '@ionic/react';
import { useTranslation } from 'react-i18next';
import { AMAZON_REGIONS, connectRequestSchema, type PlatformInfo } from '../../../contract/publisher';
import { Field, FormMessage } from '../../components/form/Field';
import { useForm } from '../../components/form/useForm';
import { Spinner } from '../../components/Spinner';
import { showToast } from '../../components/toast';
import { ApiError } from '../../lib/api-client';
import { connectStore } from '../../publisher/api';

type Values = Record<string, string>;

function blank(platform: PlatformInfo): Values {
  return Object.fromEntries([['platform', platform.id], ...platform.fields.map((field) => [field.name, field.name === 'region' ? 'eu' : ''])]);
}

export function ConnectForm({ platform, onConnected }: { platform: PlatformInfo; onConnected: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const form = useForm(connectRequestSchema, blank(platform));
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const request = form.validate();
    if (!request || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      const answer = await connectStore(request);
      showToast(answer.message, 'success');
      form.reset(blank(platform));
      onConnected();
    } catch (error) {
      if (error instanceof ApiError && error.fieldErrors.length > 0) form.setServerErrors(error.fieldErrors);
      else setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="connect-form" onSubmit={(event) => void submit(event)} noValidate aria-busy={busy} data-testid={`connect-${platform.id}`}>
      {platform.fields.map((field) =>
        field.name === 'region' ? (
          <div className="field" key={field.name}>
            <label htmlFor={`${id}-region`}>{t('publisher.fields.region')}</label>
            <div className="field__control">
              <select id={`${id}-region`} name="region" value={form.values.region} onChange={(event) => form.set('region', event.target.value)}>
                {AMAZON_REGIONS.map((region) => (
                  <option key={region} value={region}>
                    {t(`publisher.regions.${region}`)}
                  </option>
                ))}
              </select>
            </div>
          </div>
        ) : (
          <Field
            key={field.name}
            form={form}
            name={field.name}
            label={t(`publisher.fields.${field.name as 'token'}`)}
            type={field.secret ? 'password' : 'text'}
            autoComplete="off"
            spellCheck={false}
            autoCapitalize="off"
          />
        ),
      )}
      {failure ? <FormMessage tone="error">{failure}</FormMessage> : null}
      <IonButton type="submit" disabled={busy} data-testid="connect-submit">
        {busy ? (
          <>
            <Spinner /> {t('publisher.checking')}
          </>
        ) : platform.demo ? (
          t('publisher.connectDemo')
        ) : (
          t('publisher.connect')
        )}
      </IonButton>
    </form>
  );
}
