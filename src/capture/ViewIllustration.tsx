// A drawing of each guided angle (SPEC §3 views), for the shooting requirements, empty slots and
// the camera's outline; and the same shoe as a sample shot (light backdrop, studio shading and a
// contact shadow) that shows the seller what a good photo of that angle looks like.
import type { ShoeView } from '../../contract/enums';

const SIDE = 'M10 56 L10 30 Q12 22 22 22 L40 24 Q52 26 62 36 L86 44 Q108 48 110 56 Z';
const SOLE_STRIP = 'M8 56 L112 56 Q112 64 104 64 L14 64 Q8 64 8 56 Z';

function Side({ mirror = false, turned = false }: { mirror?: boolean; turned?: boolean }) {
  const transform = `${mirror ? 'translate(120 0) scale(-1 1)' : ''}${turned ? ' translate(12 6) scale(0.82 0.9)' : ''}`;
  return (
    <g transform={transform.trim() || undefined}>
      <path d={SIDE} fill="currentColor" opacity="0.85" />
      <path d={SOLE_STRIP} fill="currentColor" opacity="0.5" />
      {turned ? <ellipse cx="30" cy="24" rx="14" ry="4" fill="none" stroke="currentColor" strokeWidth="2" /> : null}
      <path d="M46 30 l4 10 M54 33 l4 9 M62 37 l3 8" stroke="var(--ion-background-color, #fff)" strokeWidth="2" />
    </g>
  );
}

function drawingOf(view: ShoeView) {
  let drawing;
  switch (view) {
    case 'right_side':
      drawing = <Side />;
      break;
    case 'left_side':
      drawing = <Side mirror />;
      break;
    case 'right_45':
      drawing = <Side turned />;
      break;
    case 'front':
      drawing = (
        <g>
          <path d="M42 64 L42 34 Q42 14 60 14 Q78 14 78 34 L78 64 Z" fill="currentColor" opacity="0.85" />
          <rect x="38" y="62" width="44" height="8" rx="3" fill="currentColor" opacity="0.5" />
          <path d="M52 26 h16 M52 33 h16 M52 40 h16" stroke="var(--ion-background-color, #fff)" strokeWidth="2" />
        </g>
      );
      break;
    case 'back':
      drawing = (
        <g>
          <path d="M44 64 L44 20 Q60 10 76 20 L76 64 Z" fill="currentColor" opacity="0.85" />
          <rect x="40" y="62" width="40" height="8" rx="3" fill="currentColor" opacity="0.5" />
          <path d="M60 22 v30" stroke="var(--ion-background-color, #fff)" strokeWidth="2" />
        </g>
      );
      break;
    case 'bottom':
      drawing = (
        <g>
          <path d="M16 40 Q16 22 40 24 Q60 26 70 30 Q92 22 106 34 Q112 46 98 54 Q80 60 60 52 Q40 58 24 54 Q16 50 16 40 Z" fill="currentColor" opacity="0.7" />
          <path d="M30 34 l8 12 M44 32 l8 14 M80 34 l8 12 M94 36 l4 10" stroke="var(--ion-background-color, #fff)" strokeWidth="2" />
        </g>
      );
      break;
    default:
      drawing = (
        <g>
          <Side />
          <circle cx="78" cy="36" r="16" fill="none" stroke="currentColor" strokeWidth="4" />
          <path d="M90 48 l12 12" stroke="currentColor" strokeWidth="5" strokeLinecap="round" />
        </g>
      );
  }
  return drawing;
}

export function ViewIllustration({ view, className }: { view: ShoeView; className?: string }) {
  return (
    <svg className={className} viewBox="0 0 120 80" aria-hidden="true" focusable="false">
      {drawingOf(view)}
    </svg>
  );
}

/** The sample shot of one angle, named for screen readers by `label`. */
export function ViewSample({ view, label, className }: { view: ShoeView; label: string; className?: string }) {
  const id = `sample-${view}`;
  return (
    <svg className={className} viewBox="0 0 120 80" role="img" aria-label={label}>
      <defs>
        <linearGradient id={`${id}-backdrop`} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#f7f7f5" />
          <stop offset="1" stopColor="#e4e4e0" />
        </linearGradient>
        <linearGradient id={`${id}-light`} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#fff" stopOpacity="0.35" />
          <stop offset="0.6" stopColor="#fff" stopOpacity="0" />
        </linearGradient>
        <radialGradient id={`${id}-shadow`}>
          <stop offset="0" stopColor="#000" stopOpacity="0.35" />
          <stop offset="1" stopColor="#000" stopOpacity="0" />
        </radialGradient>
      </defs>
      <rect width="120" height="80" fill={`url(#${id}-backdrop)`} />
      <ellipse cx="60" cy="70" rx="54" ry="5" fill={`url(#${id}-shadow)`} />
      <g style={{ color: '#6b4330' }}>{drawingOf(view)}</g>
      <rect width="120" height="80" fill={`url(#${id}-light)`} />
    </svg>
  );
}
