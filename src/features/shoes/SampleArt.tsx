// Illustrations of each output type, drawn in the app (no image downloads, crisp at any size).
import { SHOE_LACES, SHOE_SOLE, SHOE_UPPER } from '../../components/ShoeGlyph';

export type SampleKind = 'product' | 'multi' | 'poster' | 'color' | 'stillLife' | 'model' | 'video';

function Shoe({ x, y, scale, color, flip = false }: { x: number; y: number; scale: number; color: string; flip?: boolean }) {
  const transform = flip
    ? `translate(${x + 190 * scale} ${y}) scale(${-scale} ${scale})`
    : `translate(${x} ${y}) scale(${scale})`;
  return (
    <g transform={transform}>
      <path fill={color} d={SHOE_UPPER} />
      <path fill="#fafaf9" d={SHOE_SOLE} />
      <path fill="none" stroke="#1c1917" strokeWidth="3.5" strokeLinecap="round" d={SHOE_LACES} />
    </g>
  );
}

const PALETTE = ['#ea580c', '#fdba74', '#1c1917', '#e7e5e4', '#0f766e'];

const ART: Record<SampleKind, () => React.JSX.Element> = {
  product: () => (
    <>
      <rect width="300" height="400" fill="#f5f5f4" />
      <ellipse cx="150" cy="262" rx="110" ry="10" fill="#000" opacity="0.18" />
      <Shoe x={30} y={168} scale={1.26} color="#ea580c" />
      <text x="16" y="388" fontSize="14" fill="#57534e" fontFamily="sans-serif">3:4 · 1200×1600</text>
    </>
  ),
  multi: () => (
    <>
      <rect width="300" height="400" fill="#fafaf9" />
      {[0, 1, 2, 3].map((i) => (
        <g key={i} transform={`translate(${(i % 2) * 150} ${Math.floor(i / 2) * 200})`}>
          <rect x="8" y="8" width="134" height="184" rx="8" fill="#e7e5e4" />
          <Shoe x={18} y={80} scale={0.6} color="#0f766e" flip={i % 2 === 1} />
        </g>
      ))}
    </>
  ),
  poster: () => (
    <>
      <rect width="300" height="400" fill="#7c2d12" />
      <circle cx="210" cy="120" r="90" fill="#ea580c" />
      <Shoe x={24} y={150} scale={1.3} color="#fdba74" />
      <text x="20" y="330" fontSize="40" fontWeight="800" fill="#fafaf9" fontFamily="sans-serif">NEW</text>
      <text x="20" y="364" fontSize="18" fill="#fed7aa" fontFamily="sans-serif">SPRING DROP</text>
    </>
  ),
  color: () => (
    <>
      <rect width="300" height="400" fill="#fafaf9" />
      <Shoe x={50} y={40} scale={1.05} color="#ea580c" />
      {PALETTE.map((color, i) => (
        <g key={color} transform={`translate(20 ${170 + i * 44})`}>
          <rect width="56" height="34" rx="6" fill={color} stroke="#d6d3d1" />
          <text x="70" y="23" fontSize="15" fill="#292524" fontFamily="monospace">{color.toUpperCase()}</text>
        </g>
      ))}
    </>
  ),
  stillLife: () => (
    <>
      <rect width="300" height="400" fill="#e7e5e4" />
      <rect x="170" y="40" width="100" height="130" rx="6" fill="#a8a29e" transform="rotate(8 220 105)" />
      <circle cx="70" cy="310" r="42" fill="#d6d3d1" />
      <rect x="180" y="270" width="90" height="16" rx="8" fill="#0f766e" transform="rotate(-20 225 278)" />
      <Shoe x={40} y={160} scale={1.1} color="#ea580c" />
    </>
  ),
  model: () => (
    <>
      <rect width="300" height="400" fill="#cbd5e1" />
      <rect y="300" width="300" height="100" fill="#94a3b8" />
      <path d="M112 0h34l-4 290h-26zM156 0h34l-8 290h-26z" fill="#1e3a8a" />
      <Shoe x={72} y={276} scale={0.5} color="#ea580c" flip />
      <Shoe x={150} y={276} scale={0.5} color="#ea580c" />
    </>
  ),
  video: () => (
    <>
      <rect width="300" height="400" fill="#0c0a09" />
      <rect x="0" y="0" width="300" height="22" fill="#292524" />
      <rect x="0" y="378" width="300" height="22" fill="#292524" />
      {Array.from({ length: 10 }, (_, i) => (
        <g key={i}>
          <rect x={8 + i * 30} y="6" width="14" height="10" rx="2" fill="#57534e" />
          <rect x={8 + i * 30} y="384" width="14" height="10" rx="2" fill="#57534e" />
        </g>
      ))}
      <Shoe x={40} y={140} scale={1.1} color="#a78bfa" />
      <circle cx="150" cy="290" r="30" fill="#fafaf9" opacity="0.9" />
      <path d="M141 274l26 16-26 16z" fill="#0c0a09" />
    </>
  ),
};

export function SampleArt({ kind, label }: { kind: SampleKind; label: string }) {
  const Art = ART[kind];
  return (
    <svg viewBox="0 0 300 400" role="img" aria-label={label} className="sample-art">
      <Art />
    </svg>
  );
}
