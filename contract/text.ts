// Text a request carries, as every request schema takes it: a string that can be stored and
// shown. A NUL character cannot be stored by PostgreSQL (in text or in jsonb), and a lone
// surrogate is not Unicode at all (it has no UTF-8 form); both are refused at the contract with
// the usual validation error, so no route ever meets them.
import { z } from 'zod';
import { rule } from './rules';

const LONE_SURROGATE = /\p{Cs}/u;

/** True when `value` holds neither a NUL character nor a lone surrogate. */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

/** A string of storable text; `params` as z.string's (for example the message of a wrong type). */
export function text(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine(isStorableText, rule('text'));
}

/** How deep a JSON object sent for safekeeping (such as an edit's details) may nest. */
export const JSON_DEPTH_MAX = 20;

/**
 * What is wrong with a JSON value sent for safekeeping, or null: every key and string in it is
 * storable text, and it nests at most JSON_DEPTH_MAX deep.
 */
function jsonProblem(value: unknown, depth = 0): 'text' | 'too_deep' | null {
  if (typeof value === 'string') return isStorableText(value) ? null : 'text';
  if (value === null || typeof value !== 'object') return null;
  if (depth >= JSON_DEPTH_MAX) return 'too_deep';
  for (const [key, item] of Object.entries(value)) {
    if (!isStorableText(key)) return 'text';
    const problem = jsonProblem(item, depth + 1);
    if (problem) return problem;
  }
  return null;
}

/** A JSON object kept as it was sent (a jsonb column), of storable text and bounded depth. */
export function jsonObject() {
  return z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    const problem = jsonProblem(value);
    if (!problem) return;
    const message = problem === 'text' ? rule('text') : rule('too_deep', { count: JSON_DEPTH_MAX });
    ctx.addIssue({ code: 'custom', message });
  });
}
