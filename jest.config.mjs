// One Jest configuration, three tiers (see docs/architecture.md, "Tests"):
//   unit         *.spec.ts next to the code, pure functions
//   integration  *.int-spec.ts, real PostgreSQL and Redis (database and key prefix per run, see tools/test/run-tests.mjs)
//   e2e          e2e/**/*.e2e-spec.ts, apps as real processes
// ESM throughout: run with NODE_OPTIONS=--experimental-vm-modules (the runner sets it).
import { readFileSync } from 'node:fs';

const swcrc = JSON.parse(readFileSync(new URL('./.swcrc', import.meta.url), 'utf8'));
delete swcrc.$schema;

const shared = {
  rootDir: '.',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swcrc, swcrc: false, module: { type: 'es6' } }] },
  moduleNameMapper: {
    '^@talao/([a-z0-9-]+)$': '<rootDir>/libs/$1/src/index.ts',
    // A lib's second entry (`@talao/issuance/create`, `@talao/<lib>/testing`) is the index of that folder.
    '^@talao/([a-z0-9-]+)/([a-z0-9-]+)$': '<rootDir>/libs/$1/src/$2/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testEnvironment: 'node',
  modulePathIgnorePatterns: ['<rootDir>/.tools/', '<rootDir>/dist/', '<rootDir>/.data/', '/dist/'],
};

export default {
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts'] },
    { ...shared, displayName: 'integration', testMatch: ['<rootDir>/{apps,libs,tools}/**/*.int-spec.ts'] },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/e2e/**/*.e2e-spec.ts'] },
  ],
};
