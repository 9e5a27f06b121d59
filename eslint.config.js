import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync } from 'node:fs';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Import boundaries (docs/decisions/0011-import-boundaries.md). The feature folders are read
// from disk, so a new feature gets its zone without touching this file.

/** The sub-folders of a folder of this repository. */
function folders(dir) {
  return readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const anyOf = (names) => names.map(escapeRegex).join('|');

const WEB_FEATURES = folders('./web/features/');
const SERVER_FEATURES = folders('./server/features/');

const WEB_NEVER_SERVER = {
  group: ['**/server/**'],
  message: 'web/ never imports server/: request and response shapes live in shared/schemas.',
};
const SERVER_NEVER_WEB = { group: ['**/web/**'], message: 'server/ never imports web/.' };

/** web/features/<feature>: no other feature, no route module; web/lib, web/components and shared/ are fine. */
function webFeatureZone(feature) {
  const others = WEB_FEATURES.filter((name) => name !== feature);
  const patterns = [
    WEB_NEVER_SERVER,
    {
      regex: '^(?:\\.\\./)+routes(?:/|$)',
      caseSensitive: true,
      message: 'Features do not import routes (web/routes imports features, not the reverse).',
    },
  ];
  if (others.length > 0)
    patterns.push({
      regex: `^(?:\\.\\./)+(?:features/)?(?:${anyOf(others)})(?:/|$)`,
      caseSensitive: true,
      message: `web/features/${feature} may not import another feature: move what both use to web/lib or web/components.`,
    });
  return {
    files: [`web/features/${feature}/**/*.{ts,tsx}`],
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  };
}

/** server/features/<feature>: another feature's services, yes; its routes (HTTP), never. */
function serverFeatureZone(feature) {
  const own = [feature, ...folders(`./server/features/${feature}/`)];
  return {
    files: [`server/features/${feature}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            SERVER_NEVER_WEB,
            {
              regex: `^(?:\\.\\./)+(?:features/)?(?!(?:${anyOf(own)})/)[\\w-]+/(?:[\\w.-]+/)*[\\w.-]+\\.routes(?:\\.ts)?$`,
              caseSensitive: true,
              message: `server/features/${feature} may import another feature's services, never its routes.`,
            },
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  {
    ignores: [
      'build/',
      'node_modules/',
      '.react-router/',
      'data/',
      'test-results/',
      'playwright-report/',
      'server/db/migrations/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/only-throw-error': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
    },
  },
  {
    files: ['web/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.configs.recommended.rules,
    },
  },
  {
    // Boundaries (docs/architecture.md §3): shared imports nothing of ours; web never imports
    // server.
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['**/server/**', '**/web/**', 'react', 'react-router', 'node:*'] },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [WEB_NEVER_SERVER] }] },
  },
  {
    files: ['server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SERVER_NEVER_WEB] }] },
  },
  ...WEB_FEATURES.map(webFeatureZone),
  ...SERVER_FEATURES.map(serverFeatureZone),
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
