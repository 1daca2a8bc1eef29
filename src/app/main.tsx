// Start-up: the language first (so the first paint is in the seller's language) and, on one of its
// routes, the Ionic app; then the shell for the address (./shells), then the update checks.
import '../lib/zod-jitless';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'jotai';
import '@ionic/react/css/core.css';
import '@ionic/react/css/normalize.css';
import '@ionic/react/css/structure.css';
import '@ionic/react/css/typography.css';
import '@ionic/react/css/display.css';
import '@ionic/react/css/palettes/dark.class.css';
import '../theme/variables.css';
import { initI18n } from '../lib/i18n';
import { sessionTokenAtom, store } from '../lib/store';
import { loadIonicApp } from './ionic-app';
import { Root } from './Root';
import { shellFor, startingPath } from './shells';

async function main() {
  // What Ionic's set-up marks on the document (its md palette and look hang on it), for the pages
  // drawn before Ionic loads or without it.
  document.documentElement.setAttribute('mode', 'md');
  document.documentElement.classList.add('md');
  const path = startingPath(window.location.pathname, store.get(sessionTokenAtom) !== null);
  if (path !== window.location.pathname) window.history.replaceState(null, '', path);
  const shell = shellFor(path);
  await Promise.all([initI18n(), shell === 'ionic' ? loadIonicApp(path) : null]);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  // A transition lets React render in slices, so start-up never blocks input for long.
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <Provider store={store}>
          <Root initial={shell} />
        </Provider>
      </StrictMode>,
    );
  });
  // The service worker's precaching and the update check wait until the page has loaded, so
  // they never compete with what the seller is waiting for.
  const startUpdates = () =>
    void import('../features/updates/updates').then((updates) => updates.startUpdates());
  const whenIdle = () => setTimeout(() => requestIdleCallback(startUpdates, { timeout: 5_000 }), 3_000);
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

void main();
