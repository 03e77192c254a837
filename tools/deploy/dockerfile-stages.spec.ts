import { dockerfileStages } from './dockerfile-stages.js';

describe('dockerfileStages', () => {
  it('splits stages, joins continuation lines and keeps the last USER of each stage', () => {
    const stages = dockerfileStages(
      [
        '# syntax=docker/dockerfile:1',
        'ARG X=1',
        'FROM node:24-bookworm-slim AS build',
        'RUN npm ci \\',
        ' && npm run build',
        'FROM build AS migrate',
        'USER node',
        'FROM --platform=linux/amd64 node:24-bookworm-slim',
        'USER root',
        'USER 1000',
        'CMD ["node", "main.js"]',
      ].join('\n'),
    );
    expect(stages.map((s) => [s.from, s.name, s.user])).toEqual([
      ['node:24-bookworm-slim', 'build', undefined],
      ['build', 'migrate', 'node'],
      ['node:24-bookworm-slim', undefined, '1000'],
    ]);
    expect(stages[0]!.instructions).toEqual(['RUN npm ci   && npm run build']);
  });
});
