// Ionic in md mode everywhere, set once before any Ionic component renders: by the Ionic app, and
// by the dialogs (which use Ionic's buttons) when one opens over a public page.
import { setupIonicReact } from '@ionic/react';

setupIonicReact({ mode: 'md' });
