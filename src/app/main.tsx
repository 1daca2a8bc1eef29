// Start-up: the language first (so the first paint is in the seller's language), then the app,
// then the update checks.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { config as zodConfig } from 'zod/v4/core';
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

// zod would probe for eval (to compile fast parsers), which the Content-Security-Policy forbids.
zodConfig({ jitless: true });

async function main() {
  await initI18n();
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <Provider store={store}>
        <App />
      </Provider>
    </StrictMode>,
  );
  // The update check and the service worker start after the first paint.
  void import('../features/updates/updates').then(({ startUpdates }) => startUpdates());
}

void main();
