// The confirmation dialog (SPEC §2): the outputs the task will make, each with its cost and a
// remove button, and the total against the balance.
import { IonButton } from '@ionic/react';
import { closeCircleOutline } from 'ionicons/icons';
import { useTranslation } from 'react-i18next';
import type { Category } from '../../../contract/enums';
import type { PricedOutput, SubOption } from '../../../contract/selection';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { useSubOptionLabel } from './StylesSection';

export interface ConfirmDialogProps {
  open: boolean;
  outputs: readonly PricedOutput[];
  total: number;
  /** Null when unknown (offline before the balance was read). */
  balance: number | null;
  busy: boolean;
  onRemove: (output: PricedOutput) => void;
  onCancel: () => void;
  onConfirm: () => void;
}

/** "Poster", "Half body: Plain", "Product shots: Front". */
export function useOutputLabel() {
  const { t } = useTranslation();
  const subLabel = useSubOptionLabel();
  return (output: PricedOutput) => {
    const sub = output.name.includes(':') ? (output.name.split(':')[1] as SubOption) : undefined;
    const category = t(`task.categories.${output.category as Category}.title`);
    const name = sub ? `${category}: ${subLabel(output.category, sub)}` : category;
    return output.view ? t('task.confirm.outputView', { name, view: t(`task.views.${output.view}`) }) : name;
  };
}

export function ConfirmDialog({ open, outputs, total, balance, busy, onRemove, onCancel, onConfirm }: ConfirmDialogProps) {
  const { t } = useTranslation();
  const label = useOutputLabel();
  const short = balance !== null && total > balance ? total - balance : 0;
  return (
    <Dialog open={open} onClose={busy ? () => {} : onCancel} dismissible={!busy} labelledBy="confirm-title" testId="confirm-dialog">
      <h2 id="confirm-title">{t('task.confirm.title')}</h2>
      <p>{t('task.confirm.lead')}</p>
      {outputs.length > 0 ? (
        <ul className="confirm__outputs">
          {outputs.map((output) => {
            const name = label(output);
            return (
              <li key={`${output.name}/${output.view ?? ''}`} className="confirm__output" data-testid="confirm-output">
                <span className="confirm__name">{name}</span>
                <span className="confirm__cost">{t('task.confirm.tokens', { count: output.cost })}</span>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={t('task.confirm.remove', { name })}
                  disabled={busy}
                  onClick={() => onRemove(output)}
                >
                  <Icon icon={closeCircleOutline} />
                </button>
              </li>
            );
          })}
        </ul>
      ) : (
        <p role="alert">{t('task.confirm.empty')}</p>
      )}
      <p className="confirm__total" data-testid="confirm-total">
        {t('task.confirm.total', { count: total })}
      </p>
      <p className="confirm__balance">
        {balance === null ? t('task.confirm.balanceUnknown') : t('task.confirm.balance', { count: balance })}
      </p>
      {short > 0 ? (
        <p className="confirm__short" role="alert">
          {t('task.confirm.short', { missing: short })}
        </p>
      ) : null}
      <div className="dialog__actions">
        <IonButton fill="clear" onClick={onCancel} disabled={busy}>
          {t('task.confirm.cancel')}
        </IonButton>
        <IonButton onClick={onConfirm} disabled={busy || outputs.length === 0} data-testid="confirm-submit">
          {busy ? t('task.submit.sending') : t('task.confirm.submit', { count: total })}
        </IonButton>
      </div>
    </Dialog>
  );
}
