/// <reference types="vite/client" />

/** The running app's version (package.json), compared with /version.json. */
declare const __APP_VERSION__: string;
