// ESLint (flat config): the recommended rules for the playground's modules, the widget, the Web Worker, the tests
// and the build config. `npm run lint` runs it with prettier's check; `npm test` runs lint, types and vitest.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['dist/', 'node_modules/'] },
  js.configs.recommended,
  {
    files: ['src/**/*.js', 'public/**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.browser } },
  },
  {
    files: ['src/layout.worker.js'],
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    // Swagger UI's starter is a classic script beside swagger-ui-bundle.js (its `/* global */` names SwaggerUIBundle)
    files: ['public/swagger/init.js'],
    languageOptions: { sourceType: 'script' },
  },
  {
    files: ['test/**/*.js', 'vite.config.js', 'eslint.config.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.node, ...globals.browser } },
  },
  {
    rules: {
      // `catch {}` and `_`-named arguments are how the code says "deliberately unused"
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
];
