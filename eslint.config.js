// ESLint flat config: typescript-eslint's recommended rules without type information (so a lint of the whole
// tree takes seconds) and React's rules of hooks.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The layers (docs/design.md): what each folder of src/ may import of the others. Imports go one way, down.
const BELOW = {
  terminal: [],
  format: ['terminal'],
  api: ['terminal', 'lazyBuiltins'],
  sandbox: ['terminal', 'lazyBuiltins', 'api'],
  config: ['terminal', 'lazyBuiltins', 'api'],
  credentials: ['terminal', 'lazyBuiltins', 'api', 'config'],
  export: ['terminal', 'lazyBuiltins', 'format', 'api', 'sandbox', 'config', 'credentials'],
  audit: ['terminal', 'lazyBuiltins', 'format', 'api', 'sandbox', 'config', 'credentials', 'export'],
  ui: ['terminal', 'lazyBuiltins', 'format', 'api', 'sandbox', 'config', 'credentials', 'export', 'audit'],
  commands: ['terminal', 'lazyBuiltins', 'format', 'api', 'sandbox', 'config', 'credentials', 'export', 'audit', 'ui'],
};
const FOLDERS = [...Object.keys(BELOW), 'startup'];
const layerRules = Object.entries(BELOW).map(([layer, below]) => ({
  files: [`src/${layer}/**/*.{ts,tsx,mjs}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...FOLDERS.filter((folder) => folder !== layer && !below.includes(folder)).map((folder) => ({
            group: [`**/${folder}/**`],
            message: `src/${layer}/ may import only ${below.join(', ') || 'nothing of the project'} (docs/design.md, Layers)`,
          })),
          ...['cli', 'lazyBuiltins']
            .filter((file) => !below.includes(file))
            .map((file) => ({ group: [`**/${file}`], message: `src/${layer}/ may not import src/${file} (docs/design.md, Layers)` })),
        ],
      },
    ],
  },
}));

export default defineConfig(
  { ignores: ['dist/', 'coverage/', '.bench-tmp/', 'docs/'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // A terminal program matches escape sequences and control characters on purpose (sanitiser, key splitter).
      'no-control-regex': 'off',
      // `const { id: _, ...rest } = x` is how a field is left out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  ...layerRules,
  {
    // A test's sandbox listens on a loopback host of its own (ownSandbox): the client keeps a pace, a wait and a
    // ban per base URL for the whole worker, and a later server on the same port would inherit them.
    files: ['test/**/*.{ts,tsx}'],
    ignores: ['test/sandbox/helpers.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/src/sandbox/server'], importNames: ['startSandbox'], message: 'use ownSandbox or sandboxFor (test/sandbox/helpers.ts)' }] },
      ],
    },
  },
);
