// The shoe's measurements on /task page 1 (SPEC §3), each stored in the draft as it is typed.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveShoeParam } from '../../capture/drafts';
import type { DraftKey, ShoeParams } from '../../offline/records';
import { PARAMS, paramValue, type Param } from './task-draft';

export function ShoeParamsSection({ draftKey, params }: { draftKey: DraftKey; params: ShoeParams }) {
  const { t } = useTranslation();
  // What the seller is typing ("12," on the way to "12,5", or something that is no number): the
  // draft keeps numbers, so the text is shown from here until it is one.
  const [typing, setTyping] = useState<Partial<Record<Param, string>>>({});
  const change = (name: Param, text: string) => {
    setTyping((all) => ({ ...all, [name]: text }));
    const value = paramValue(text);
    if (value !== null) void saveShoeParam(draftKey, name, value);
  };
  const settle = (name: Param) => {
    const text = typing[name];
    if (text !== undefined && paramValue(text) !== null) setTyping(({ [name]: _, ...rest }) => rest);
  };
  return (
    <fieldset className="task__params">
      <legend>{t('task.params.title')}</legend>
      {PARAMS.map((name) => (
        <div className="field" key={name}>
          <label htmlFor={`param-${name}`}>{t(`task.params.${name}`)}</label>
          <input
            id={`param-${name}`}
            inputMode="decimal"
            value={typing[name] ?? params[name]?.toString() ?? ''}
            onChange={(event) => change(name, event.target.value)}
            onBlur={() => settle(name)}
          />
        </div>
      ))}
    </fieldset>
  );
}
