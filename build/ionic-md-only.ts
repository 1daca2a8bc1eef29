// Vite plugin: SoleStudio runs Ionic in Material mode everywhere (setupIonicReact({ mode: 'md' })),
// so the iOS-mode stylesheets inside each Ionic component are never applied. This drops them
// from the bundle. A component whose code does not have the expected shape is left untouched.
import type { Plugin } from 'vite';

const MARKER = 'static get style(){return{ios:';
const IONIC_COMPONENT = /@ionic[\\/]core[\\/]components[\\/][^\\/]+\.js$/;

/** Index just past the string literal starting at `start`, or -1 when it is not a plain one. */
function endOfStringLiteral(code: string, start: number): number {
  const quote = code[start];
  if (quote !== '"' && quote !== "'") return -1;
  for (let i = start + 1; i < code.length; i += 1) {
    const char = code[i];
    if (char === '\\') i += 1;
    else if (char === quote) return i + 1;
  }
  return -1;
}

export function stripIosStyles(code: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const at = code.indexOf(MARKER, from);
    if (at === -1) break;
    const literalStart = at + MARKER.length;
    const literalEnd = endOfStringLiteral(code, literalStart);
    if (literalEnd === -1) break;
    out += `${code.slice(from, literalStart)}""`;
    from = literalEnd;
  }
  return out + code.slice(from);
}

export function ionicMdOnly(): Plugin {
  return {
    name: 'solestudio:ionic-md-only',
    apply: 'build',
    transform(code, id) {
      if (!IONIC_COMPONENT.test(id) || !code.includes(MARKER)) return null;
      return { code: stripIosStyles(code), map: null };
    },
  };
}
