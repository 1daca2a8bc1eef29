// An amount in a currency's minor units (cents, kopecks) as the seller's language writes money.
export function formatMoney(minor: number, currency: string, language: string): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency }).format(minor / 100);
}
