import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * design.md §2 "who may import whom", enforced: ui → engine/api.ts + protocol; worker → engine;
 * engine → protocol; server → protocol; reporting (used by ui and worker) → protocol. Nothing imports ui; the engine never imports worker or ui;
 * the server never imports engine.
 */
const boundary = (message, group) => ({
  'no-restricted-imports': ['error', { patterns: [{ group, message }] }],
});

/**
 * A file of the engine's contract: the engine's boundary, and no relative import but the ones `allowed`
 * (a regex of what may follow the leading '.' of a relative path).
 */
const contractOnly = (files, allowed, message) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { group: ['**/worker/**', '**/ui/**', '**/server/**'], message: 'The engine may import protocol only (design.md §2).' },
          { regex: `^\\.(?!${allowed})`, message: `The contract imports nothing of the engine's implementation: ${message}` },
        ],
      },
    ],
  },
});

export default tseslint.config(
  { ignores: ['dist/', 'dist-server/', 'node_modules/', 'data/', 'coverage/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[property.name='innerHTML']", message: 'No innerHTML (design.md §5).' },
        { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'No dangerouslySetInnerHTML.' },
      ],
    },
  },
  {
    // Issue 21: the server's database calls are async; a promise nobody awaits is a statement that may run
    // outside its transaction, or an error nobody hears. Type-aware, so for the server and its tests only.
    files: ['server/**/*.ts', 'tests/server/**/*.ts', 'tests/support/fixtures.ts', 'tests/support/dbSnapshot.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    files: ['src/protocol/**'],
    rules: boundary('protocol holds wire types only and imports nothing of the app.', [
      '**/engine/**',
      '**/worker/**',
      '**/ui/**',
      '**/server/**',
    ]),
  },
  {
    files: ['src/engine/**'],
    rules: boundary('The engine may import protocol only (design.md §2).', ['**/worker/**', '**/ui/**', '**/server/**']),
  },
  // Issue 22: the contract (api.ts and contract/) imports nothing of the engine's implementation, so it cannot
  // drift into depending on how the engine is built nor close an import loop through it. Its types live in
  // contract/; api.ts re-exports the pure product rules of rules/, which themselves import only the contract's
  // types and protocol. Each block repeats the engine's boundary, as a later block's options replace an earlier's.
  contractOnly(['src/engine/api.ts'], '/contract/|/rules(?:/|$)|\\./protocol/', 'api.ts imports contract/, rules/ and protocol only.'),
  contractOnly(['src/engine/contract/**'], '/[^./][^/]*$|\\./\\.\\./protocol/', 'contract/ imports its own files and protocol only.'),
  contractOnly(
    ['src/engine/rules/**'],
    '/[^./][^/]*$|\\./contract/|\\./\\.\\./protocol/',
    'rules/ (re-exported by the contract) imports its own files, contract/ and protocol only.',
  ),
  {
    // Error reporting is shared by the tab and the engine's worker: it may import protocol only.
    files: ['src/reporting/**'],
    rules: boundary('Error reporting imports protocol only (the UI and the worker both use it).', [
      '**/engine/**',
      '**/worker/**',
      '**/ui/**',
      '**/server/**',
    ]),
  },
  {
    files: ['src/worker/**'],
    rules: boundary('The worker may import the engine and protocol only.', ['**/ui/**', '**/server/**']),
  },
  {
    files: ['src/ui/**'],
    rules: boundary('The UI talks to the engine only through src/engine/api.ts.', [
      '**/engine/*',
      '!**/engine/api',
      '!**/engine/api.ts',
      '**/engine/*/**',
      '**/worker/**',
      '**/server/**',
    ]),
  },
  {
    // The entry point alone starts the tab's connection to the engine worker (src/worker/connect.ts).
    files: ['src/ui/main.tsx'],
    rules: boundary('The UI talks to the engine only through src/engine/api.ts.', [
      '**/engine/*',
      '!**/engine/api',
      '!**/engine/api.ts',
      '**/engine/*/**',
      '**/worker/*',
      '!**/worker/connect',
      '!**/worker/connect.ts',
      '**/worker/*/**',
      '**/server/**',
    ]),
  },
  {
    files: ['server/**'],
    rules: boundary('The server may import protocol only, never the client.', [
      '**/src/engine/**',
      '**/src/worker/**',
      '**/src/ui/**',
      '**/src/locales/**',
    ]),
  },
);
