#!/usr/bin/env node
// Offline stand-in for Prisma's native `schema-engine` binary (which the CLI would download from the internet).
// prisma.config.ts points PRISMA_SCHEMA_ENGINE_BINARY here; the CLI then spawns this file with the same arguments
// and protocol as the native engine. See README.md next to this file.
//   schema-engine.mjs --version
//   schema-engine.mjs [--datamodels <file>]… [--datasource <json>] cli <can-connect-to-database|create-database|drop-database>
//   schema-engine.mjs [--datamodels <file>]… [--datasource <json>]          (JSON-RPC on stdin/stdout)
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCliCommand } from './cli-commands.mjs';
import { serveJsonRpc } from './json-rpc.mjs';
import { createRpcHandler } from './rpc-methods.mjs';
import { engineVersion } from './wasm-engine.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  strict: false, // tolerate flags a newer CLI may add (--enabled-preview-features, --extension-types, …)
  options: {
    version: { type: 'boolean', short: 'V' },
    datamodels: { type: 'string', multiple: true },
    datasource: { type: 'string' },
  },
});

if (values.version) {
  process.stdout.write(`schema-engine-cli ${await engineVersion()}\n`);
  process.exit(0);
}

const datasource = values.datasource ? JSON.parse(values.datasource) : undefined;
const datamodels = (values.datamodels ?? []).map((path) => [path, readFileSync(path, 'utf8')]);

if (positionals[0] === 'cli') {
  process.exit(await runCliCommand(positionals[1], datasource));
}

const handler = createRpcHandler({ datamodels, datasource });
await serveJsonRpc(handler.handle);
await handler.close();
process.exit(0);
