// `npm run lint`: typescript-eslint's recommended rules, React's hooks rules on
// the screens, and a warning for functions past ~60 lines (screens' components
// past 150): a sign that a part wants its own name. Formatting is Prettier's
// (`npm run format`), checked by `npm run lint` too.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/', 'node_modules/', 'bench/.data/', 'test-results/', 'db/migrations/', 'native/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // Input checks refuse control characters by matching them: on purpose (api/schemas.ts, statement text).
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Tests read JSON answers as any on purpose: their assertions check the shape.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The domain is async over one storage interface (issue 44): a promise nobody awaits is a write that may land
    // after its transaction, or an error nobody sees. Typed rules, on the code that reaches the storage. One program
    // (`project`) rather than the project service: the same files checked, a quarter faster. That program is the
    // app's code alone (tsconfig.lint.json): the tests and benchmarks (and their vitest, Playwright and SDK client
    // types) doubled it, and they keep every untyped rule here and the type check of `npm run typecheck`.
    files: ['src/main/**/*.ts', 'src/cli/**/*.ts'],
    languageOptions: { parserOptions: { project: './tsconfig.lint.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: true, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: { 'max-lines-per-function': ['warn', { max: 60, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['src/renderer/**/*.tsx'],
    rules: { 'max-lines-per-function': ['warn', { max: 150, skipBlankLines: true, skipComments: true }] },
  },
);
