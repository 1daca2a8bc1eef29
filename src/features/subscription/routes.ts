// Addresses inside the subscription screens.
import type { PlanInterval } from '../../../contract/billing';
import { paths } from '../../config/paths';

/** The local provider's checkout carrying the chosen plan (SPEC §2). */
export function checkoutPath(planId: number, interval: PlanInterval): string {
  return `${paths.local_subscription}?plan_id=${planId}&interval=${interval}`;
}
