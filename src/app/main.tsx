// Start-up: the language first (so the first paint is in the seller's language), then the app,
// then the update checks.
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
import { App } from './App';
import { initI18n } from '../lib/i18n';
import { store } from '../lib/store';

async function main() {
  await initI18n();
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  // A transition lets React render in slices, so start-up never blocks input for long.
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <Provider store={store}>
          <App />
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
