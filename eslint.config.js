import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.tools/**', '.data/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    files: [
      'scripts/**',
      'bench/**',
      '**/bin/**',
      'services/*/src/admin.ts',
      '**/*.test.ts',
      'tests/**',
      'packages/testkit/**',
      'packages/localenv/**',
    ],
    rules: { 'no-console': 'off' },
  },
  // The dashboard's web app runs in the browser and is React: browser globals and the hooks rules there only.
  {
    files: ['packages/dashboard-web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
    languageOptions: { globals: globals.browser },
  },
  // Its build config prints the bundle's gzipped size.
  { files: ['packages/dashboard-web/vite.config.ts'], rules: { 'no-console': 'off' } },
  { files: ['eslint.config.js', 'jest.config.js'], ...tseslint.configs.disableTypeChecked },
);
