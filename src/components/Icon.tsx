// An ionicons icon drawn inline. ion-icon brings a component runtime into the first page load;
// the icons themselves are plain SVG, so the landing page and the shell draw them directly.
import './Icon.css';

const PREFIX = 'data:image/svg+xml;utf8,';

/** The SVG markup of an `ionicons/icons` export (a trusted constant, not user input). */
export function svgOf(icon: string): string {
  if (!icon.startsWith(PREFIX)) throw new Error('Not an ionicons data URL');
  return icon.slice(PREFIX.length);
}

export function Icon({ icon, className }: { icon: string; className?: string }) {
  return (
    <span
      className={className ? `icon ${className}` : 'icon'}
      aria-hidden="true"
      dangerouslySetInnerHTML={{ __html: svgOf(icon) }}
    />
  );
}
