// SoleStudio's sneaker, drawn in the app so illustrations need no image files.
export const SHOE_UPPER =
  'M4 76V52q0-8 8-10l38-6q12-2 20-10l12-12q4-4 10-2l10 4q6 4 8 12l4 12q4 8 16 12l36 8q16 4 16 16z';
export const SHOE_SOLE = 'M0 80q0 12 12 12h166q12 0 12-12v-4H0z';
export const SHOE_LACES = 'M84 30l14 6M78 38l16 7M72 46l16 7';

export function ShoeGlyph({
  upper = 'currentColor',
  sole = '#fafaf9',
  laces = '#1c1917',
  className,
}: {
  upper?: string;
  sole?: string;
  laces?: string;
  className?: string;
}) {
  return (
    <svg viewBox="0 0 190 94" className={className} aria-hidden="true" focusable="false">
      <path fill={upper} d={SHOE_UPPER} />
      <path fill={sole} d={SHOE_SOLE} />
      <path fill="none" stroke={laces} strokeWidth="3.5" strokeLinecap="round" d={SHOE_LACES} />
    </svg>
  );
}
