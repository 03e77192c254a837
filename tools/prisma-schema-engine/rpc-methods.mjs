// The schema engine's JSON-RPC methods, served by the wasm engine. Method names and parameters are the native
/* global WebAssembly */
// engine's (the wasm build exposes the same API), so most calls pass straight through.
import { pgConfigFromUrl, quoteIdent, runAdminStatement } from './postgres-adapter.mjs';
import { startWasmEngine } from './wasm-engine.mjs';

const PASSTHROUGH = new Set([
  'applyMigrations',
  'createMigration',
  'dbExecute',
  'devDiagnostic',
  'diagnoseMigrationHistory',
  'ensureConnectionValidity',
  'evaluateDataLoss',
  'introspect',
  'introspectSql',
  'markMigrationApplied',
  'markMigrationRolledBack',
  'reset',
  'schemaPush',
]);

// evaluateDataLoss and createMigration need the schema the migration history produces. The wasm engine only builds
// it (on a shadow database) in the methods it hands the adapter factory to — devDiagnostic, diagnoseMigrationHistory,
// diff — and caches it per migration list; these two read that cache and fail with "PostgreSQL shadow DB must be
// provided through an external factory" when it is cold. That happens in `migrate dev` right after it applies pending
// migrations (devDiagnostic answered "database is behind" without replaying the history). Warm the cache with
// diagnoseMigrationHistory (which may use the factory) and retry once.
const NEEDS_WARM_MIGRATION_CACHE = new Set(['evaluateDataLoss', 'createMigration']);
const COLD_CACHE_MESSAGE = 'shadow DB must be provided through an external factory';

function log(line) {
  // The engine's tracing output is already one JSON object per line, the format the CLI reads from stderr.
  process.stderr.write(line.endsWith('\n') ? line : `${line}\n`);
}

/** A diff between files (migrations, schema files, nothing) reads no database, so the database need not exist yet. */
function diffNeedsNoDatabase(method, params) {
  const offline = new Set(['empty', 'schemaDatamodel', 'migrations']);
  return method === 'diff' && offline.has(params?.from?.tag) && offline.has(params?.to?.tag);
}

export function createRpcHandler({ datamodels, datasource }) {
  let started;

  // The CLI starts one engine per command, so the first request tells what the process is for.
  const engine = async (firstMethod, firstParams) => {
    const databaseOptional = diffNeedsNoDatabase(firstMethod, firstParams);
    started ??= startWasmEngine({ datamodels, datasource: { ...datasource, databaseOptional }, log }).catch((error) => {
      started = undefined;
      throw error;
    });
    return (await started).engine;
  };

  async function call(method, params) {
    const instance = await engine(method, params);
    try {
      return await instance[method](params);
    } catch (error) {
      const coldCache = NEEDS_WARM_MIGRATION_CACHE.has(method) && String(error?.message).includes(COLD_CACHE_MESSAGE);
      if (!coldCache) throw error;
      const message = `${method} found the migration-history cache cold; warming it with diagnoseMigrationHistory and retrying`;
      log(JSON.stringify({ level: 'INFO', fields: { message }, target: 'schema_engine_bridge' }));
      const { migrationsList, filters } = params;
      await instance.diagnoseMigrationHistory({ migrationsList, filters, optInToShadowDatabase: true });
      return instance[method](params);
    }
  }

  async function handle(method, params, { print }) {
    if (PASSTHROUGH.has(method)) return call(method, params);
    switch (method) {
      case 'diff': {
        const result = await call('diff', params);
        // The native engine prints the diff itself (via the CLI's "print" method) and answers stdout: null.
        if (result.stdout) print(result.stdout);
        return { exitCode: result.exitCode, stdout: null };
      }
      case 'getDatabaseVersion':
        return (await engine()).version(params);
      case 'createDatabase':
        return createDatabase(params);
      case 'debugPanic':
        throw new WebAssembly.RuntimeError('This is the debugPanic artificial panic');
      default:
        throw Object.assign(new Error(`Method not supported by the wasm schema engine bridge: ${method}`), { code: 'P1000' });
    }
  }

  async function createDatabase({ datasource: param }) {
    const url = param?.tag === 'ConnectionString' ? param.url : datasource?.url;
    if (!url) throw Object.assign(new Error('No datasource URL to create a database from.'), { code: 'P1012' });
    const { config } = pgConfigFromUrl(url);
    await runAdminStatement(config, `CREATE DATABASE ${quoteIdent(config.database)}`, { database: 'postgres' });
    return { databaseName: config.database };
  }

  async function close() {
    if (!started) return;
    const pending = started;
    started = undefined;
    const { engine: instance } = await pending.catch(() => ({}));
    instance?.free();
  }

  return { handle, close };
}
