// Form state checked against a contract schema (SPEC §5): every rule's message in the seller's
// language. Messages appear when the seller first submits and then follow each keystroke (never
// on leaving a field, which would move the button under a finger mid-tap); server field errors
// join in.
import { useState } from 'react';
import type { z } from 'zod';
import { parseRule } from '../../../contract/rules';
import type { FieldErrorShape } from '../../../contract/status';
import { i18next } from '../../lib/i18n';

type Values = Record<string, string | boolean>;

export interface Form<V extends Values, O> {
  values: V;
  /** The message to show under a field, if any. */
  error(name: keyof V & string): string | undefined;
  set<K extends keyof V & string>(name: K, value: V[K]): void;
  /** Checks everything; returns the parsed values, or null after marking every field. */
  validate(): O | null;
  setServerErrors(errors: FieldErrorShape[]): void;
  reset(values?: Partial<V>): void;
}

function problems(schema: z.ZodType, values: Values): Map<string, string> {
  const result = schema.safeParse(values);
  const found = new Map<string, string>();
  if (result.success) return found;
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    const rule = parseRule(issue.message);
    if (!found.has(field)) found.set(field, rule ? i18next.t(rule.key, rule.vars) : issue.message);
  }
  return found;
}

export function useForm<S extends z.ZodType, V extends Values>(schema: S, initial: V): Form<V, z.output<S>> {
  const [values, setValues] = useState<V>(initial);
  const [submitted, setSubmitted] = useState(false);
  const [server, setServer] = useState<Map<string, string>>(new Map());
  const found = problems(schema, values);

  return {
    values,
    error: (name) => server.get(name) ?? (submitted ? found.get(name) : undefined),
    set: (name, value) => {
      setValues((current) => ({ ...current, [name]: value }));
      setServer((current) => {
        if (!current.has(name)) return current;
        const next = new Map(current);
        next.delete(name);
        return next;
      });
    },
    validate: () => {
      const result = schema.safeParse(values);
      if (result.success) return result.data;
      setSubmitted(true);
      return null;
    },
    setServerErrors: (errors) => setServer(new Map(errors.map((e) => [e.field.split('.')[0] ?? e.field, e.message]))),
    reset: (next) => {
      setValues((current) => ({ ...current, ...next }));
      setSubmitted(false);
      setServer(new Map());
    },
  };
}
