// Lint without type information: fast enough for CI on two cores; `typecheck` covers types.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';
import { moduleBoundaries } from './tools/lint/module-boundaries.mjs';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/generated/**', '.tools/**', '.data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        performance: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
        setImmediate: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      'no-console': 'off',
    },
  },
  {
    // NestJS resolves constructor parameters through emitted decorator metadata, so injected classes must stay value imports.
    files: ['apps/**/*.ts', 'libs/persistence/**/*.ts', 'libs/config/**/*.ts', 'libs/observability/**/*.ts'],
    rules: { '@typescript-eslint/consistent-type-imports': 'off' },
  },
  {
    // The dependency rules of docs/architecture.md, enforced on every TypeScript file of every project.
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: { '@nx/enforce-module-boundaries': ['error', moduleBoundaries] },
  },
  {
    // The renderer reads documents and never validates one: fiscal-xml's main entry would load libxml2-wasm (≈ 19 MB
    // of WebAssembly memory) into the pdf-renderer for nothing. Its tests may build documents with the whole package.
    files: ['libs/rendering/src/**/*.ts', 'libs/documents-pdf/src/**/*.ts'],
    ignores: ['**/testing/**', '**/*.spec.ts', '**/*.int-spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: '@talao/fiscal-xml', message: 'Import the tree reader from @talao/fiscal-xml/parsing.' }] },
      ],
    },
  },
  // Formatting is prettier's (npm run format:check); turn off the lint rules that would argue with it.
  prettier,
);
