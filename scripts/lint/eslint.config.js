// ESLint for the project's TypeScript and scripts (npm run lint, from the project root). The recommended rules
// of ESLint and typescript-eslint, and these choices:
// - no-control-regex and no-misleading-character-class off: escaping and scanning RDF and JSON text matches
//   control characters, combining marks and joiners on purpose (N-Triples escapes, JSON's unescaped controls,
//   XML's NCName ranges, text that may need NFC);
// - in tests, `any` for JSON answers read freely, and regular expressions with the two spaces the progress
//   lines print.
import globals from 'globals';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { fileURLToPath } from 'node:url';

export default tseslint.config(
  { basePath: fileURLToPath(new URL('../..', import.meta.url)) },
  { ignores: ['**/dist/**', '**/node_modules/**', 'test/spec/**', 'test/fixtures/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    rules: {
      'no-control-regex': 'off',
      'no-misleading-character-class': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-regex-spaces': 'off' },
  },
);
