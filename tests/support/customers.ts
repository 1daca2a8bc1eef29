// A seller's billing details as the local provider's checkout sends them (SPEC §3 Customer payload).
import type { Customer } from '../../contract/billing';

export function customerOf(reference: string, firstName: string): Customer {
  return {
    reference,
    first_name: firstName,
    country: 'RU',
    address: 'Lenina 1',
    billing_address: { country: 'RU', state: 'Moskva', city: 'Moskva', line1: 'Lenina 1' },
    channel: 'friend',
    id_type: 'passport',
    id_number: '4500 123456',
  };
}
