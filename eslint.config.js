// Lint: typescript-eslint, React hooks, the walls between places where code runs (STYLE.md: src
// never imports server, server never imports src, features never import each other), and no
// import circles anywhere.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';
import { noCycle } from './build/eslint-no-cycle.js';

const sameFeature = '{{ from.element.captured.feature }}';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'dist-server/',
      'dev-dist/',
      'node_modules/',
      'playwright-report/',
      'test-results/',
      'bench/results/',
      'server/db/migrations/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // No module reaches itself through its imports, type-only ones included (build/eslint-no-cycle.js
    // says why it is not eslint-plugin-import-x's no-cycle), in every part of the repository.
    files: ['**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    plugins: { solestudio: { rules: { 'no-cycle': noCycle } } },
    rules: { 'solestudio/no-cycle': 'error' },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'tests/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['workers/**/*.ts', 'tests/workers/**/*.ts'],
    languageOptions: { globals: globals.serviceworker },
  },
  {
    // One way to the network from the page and the service worker: src/lib/api-client.ts (its
    // auth, timeouts, retries and typed errors). The outbox's transport is the other, because it
    // also runs in the service worker, which has neither the page's store nor its translations.
    files: ['src/**/*.{ts,tsx}', 'workers/**/*.ts'],
    ignores: ['src/lib/api-client.ts', 'src/offline/transport.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Call the API through src/lib/api-client.ts (apiRequest, apiDownload, fetchStaticJson).' },
        { name: 'XMLHttpRequest', message: 'Call the API through src/lib/api-client.ts.' },
      ],
      'no-restricted-properties': [
        'error',
        ...['window', 'self', 'globalThis'].map((object) => ({
          object,
          property: 'fetch',
          message: 'Call the API through src/lib/api-client.ts (apiRequest, apiDownload, fetchStaticJson).',
        })),
      ],
    },
  },
  {
    files: ['server/**/*.ts', 'tests/server/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.{ts,mjs}', 'build/**/*.ts', 'e2e/**/*.ts', '*.config.{js,ts}'],
    languageOptions: { globals: globals.node },
  },
  {
    // Command-line programs report on the console.
    files: ['bench/**/*.ts', 'scripts/**/*.{ts,mjs}'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'workers/**/*.ts', 'server/**/*.ts', 'contract/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.json'] } },
      'boundaries/elements': [
        { type: 'contract', pattern: 'contract' },
        { type: 'server', pattern: 'server' },
        { type: 'worker', pattern: 'workers' },
        // Runs in the page and in the service worker: IndexedDB and the upload outbox.
        { type: 'offline', pattern: 'src/offline' },
        { type: 'feature', pattern: 'src/features/*', capture: ['feature'] },
        { type: 'app', pattern: 'src/app' },
        { type: 'shared', pattern: 'src/*' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            { from: { element: { type: 'contract' } }, allow: { to: { element: { type: 'contract' } } } },
            {
              from: { element: { type: 'server' } },
              allow: { to: { element: { types: { anyOf: ['server', 'contract'] } } } },
            },
            {
              from: { element: { type: 'worker' } },
              allow: { to: { element: { types: { anyOf: ['worker', 'offline', 'contract'] } } } },
            },
            {
              from: { element: { type: 'offline' } },
              allow: { to: { element: { types: { anyOf: ['offline', 'contract'] } } } },
            },
            {
              from: { element: { type: 'shared' } },
              allow: { to: { element: { types: { anyOf: ['shared', 'offline', 'contract'] } } } },
            },
            {
              from: { element: { type: 'feature' } },
              allow: { to: { element: { types: { anyOf: ['shared', 'offline', 'contract'] } } } },
            },
            {
              from: { element: { type: 'feature' } },
              allow: { to: { element: { type: 'feature', captured: { feature: sameFeature } } } },
            },
            {
              from: { element: { type: 'app' } },
              allow: { to: { element: { types: { anyOf: ['app', 'feature', 'shared', 'offline', 'contract'] } } } },
            },
          ],
        },
      ],
    },
  },
);
