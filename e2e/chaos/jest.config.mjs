// The chaos tier (issue 21): e2e/chaos/**/*.chaos-spec.ts, every app as a real process under faults. A separate
// configuration, so `npm test` (jest.config.mjs) never runs it: `npm run test:chaos` does, through the same runner
// (its own database and Redis key prefix, dropped and deleted at the end).
import root from '../../jest.config.mjs';

const e2e = root.projects.find((project) => project.displayName === 'e2e');

export default {
  ...e2e,
  rootDir: '../..',
  displayName: 'chaos',
  testMatch: ['<rootDir>/e2e/chaos/**/*.chaos-spec.ts'],
};
