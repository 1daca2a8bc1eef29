// A labelled form control with its error under it, tied together for screen readers.
import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { eyeOffOutline, eyeOutline } from 'ionicons/icons';
import { useTranslation } from 'react-i18next';
import { Icon } from '../Icon';
import type { Form } from './useForm';
import './form.css';

type Values = Record<string, string | boolean>;

interface FieldProps<V extends Values> extends Omit<InputHTMLAttributes<HTMLInputElement>, 'form' | 'name'> {
  form: Form<V, unknown>;
  name: keyof V & string;
  label: string;
  hint?: ReactNode;
}

export function Field<V extends Values>({ form, name, label, hint, type = 'text', ...input }: FieldProps<V>) {
  const { t } = useTranslation();
  const id = useId();
  const [reveal, setReveal] = useState(false);
  const error = form.error(name);
  const isPassword = type === 'password';
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <div className="field__control">
        <input
          id={id}
          name={name}
          type={isPassword && reveal ? 'text' : type}
          value={String(form.values[name] ?? '')}
          onChange={(event) => form.set(name, event.target.value as V[typeof name])}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
          {...input}
        />
        {isPassword ? (
          <button
            type="button"
            className="field__reveal"
            onClick={() => setReveal((v) => !v)}
            aria-label={reveal ? t('form.hidePassword') : t('form.showPassword')}
            aria-pressed={reveal}
          >
            <Icon icon={reveal ? eyeOffOutline : eyeOutline} />
          </button>
        ) : null}
      </div>
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A message about the whole form: a failure or a success. */
export function FormMessage({ tone, children }: { tone: 'error' | 'success' | 'info'; children: ReactNode }) {
  return (
    <p className={`form-message form-message--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}
