// Loads @prisma/schema-engine-wasm and starts an engine on a PostgreSQL driver adapter.
/* global WebAssembly */
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMigrationAwareFactory } from './postgres-adapter.mjs';

let bindings;

/**
 * The package's entry point imports the .wasm file as an ES module, which Node 24 still flags as experimental (and
 * prints a warning on stderr, a stream the Prisma CLI reads). Instantiating it by hand is the same thing, quietly.
 */
async function loadBindings() {
  if (bindings) return bindings;
  const glue = await import('@prisma/schema-engine-wasm/schema_engine_bg');
  const packageDir = dirname(fileURLToPath(import.meta.resolve('@prisma/schema-engine-wasm')));
  const bytes = await readFile(join(packageDir, 'schema_engine_bg.wasm'));
  const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': glue });
  glue.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  bindings = glue;
  return glue;
}

export async function engineVersion() {
  return (await loadBindings()).version();
}

/**
 * @param {{ datamodels: [string, string][], datasource: { url?: string, shadowDatabaseUrl?: string, databaseOptional?: boolean }, log: (message: string) => void }} options
 */
export async function startWasmEngine({ datamodels, datasource, log }) {
  const { SchemaEngine } = await loadBindings();
  const adapterFactory = bindMigrationAwareSqlAdapterFactory(createMigrationAwareFactory(datasource));
  const engine = await SchemaEngine.new({ datamodels: datamodels.length > 0 ? datamodels : undefined }, log, adapterFactory);
  return { engine, adapterFactory };
}
