// PostgreSQL access for the wasm schema engine: a migration-aware driver adapter factory built on @prisma/adapter-pg,
// with the fixes Prisma 7.10's adapter needs before the schema engine can use it (tools/prisma-schema-engine/README.md).
import { PrismaPg } from '@prisma/adapter-pg';
import { randomUUID } from 'node:crypto';
import pg from 'pg';

const CHAR_OID = 18; // PostgreSQL's internal one-byte "char" (pg_class.relkind, pg_constraint.contype, …)
const TEXT_OID = 25;

/**
 * Turns a postgres:// URL into discrete pg settings. Discrete fields matter: adapter-pg derives the shadow database's
 * config by spreading this object with another `database`, and a `connectionString` would silently win over it.
 */
export function pgConfigFromUrl(url) {
  const parsed = new URL(url);
  if (!/^postgres(ql)?:$/.test(parsed.protocol)) {
    throw new Error(`only postgresql:// URLs are supported by this schema engine, got ${parsed.protocol}//`);
  }
  const params = parsed.searchParams;
  const schema = params.get('schema') ?? undefined;
  const config = {
    host: params.get('host') ?? (decodeURIComponent(parsed.hostname) || 'localhost'),
    port: parsed.port ? Number(parsed.port) : Number(params.get('port') ?? 5432),
    user: decodeURIComponent(parsed.username) || params.get('user') || undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : (params.get('password') ?? undefined),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'postgres',
    ssl: sslFromMode(params.get('sslmode')),
    application_name: params.get('application_name') ?? 'prisma-schema-engine-wasm',
    // `?schema=` is Prisma's convention; PostgreSQL's is search_path. Both the engine's unqualified DDL and the
    // _prisma_migrations table then land in that schema.
    options: schema ? `-c search_path=${quoteIdent(schema)}` : undefined,
    max: 4,
    Client: CharAsTextClient,
  };
  const connectTimeout = params.get('connect_timeout');
  if (connectTimeout) config.connectionTimeoutMillis = Number(connectTimeout) * 1000;
  return { config, schema };
}

function sslFromMode(mode) {
  switch (mode) {
    case null:
    case 'disable':
    case 'prefer': // libpq would try TLS and fall back; the machines here run without TLS
      return undefined;
    case 'verify-ca':
    case 'verify-full':
      return { rejectUnauthorized: true };
    default: // require, no-verify
      return { rejectUnauthorized: false };
  }
}

export function quoteIdent(name) {
  return `"${String(name).replaceAll('"', '""')}"`;
}

/**
 * adapter-pg maps column OIDs to Prisma column types and throws UnsupportedNativeDataType for OID 18, which the
 * engine's introspection queries select (relkind, contype, …). pg returns such values as strings anyway, so
 * relabelling the field as text is exact.
 */
function relabelCharColumns(result) {
  for (const part of Array.isArray(result) ? result : [result]) {
    for (const field of part?.fields ?? []) {
      if (field.dataTypeID === CHAR_OID) field.dataTypeID = TEXT_OID;
    }
  }
  return result;
}

class CharAsTextClient extends pg.Client {
  query(...args) {
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last];
      args[last] = (error, result) => callback(error, error ? result : relabelCharColumns(result));
      return super.query(...args);
    }
    const returned = super.query(...args);
    return returned && typeof returned.then === 'function' ? returned.then(relabelCharColumns) : returned;
  }
}

/**
 * adapter-pg's executeScript splits on ";" (breaking any string or function body that contains one). The native
 * engine sends a migration as one simple-protocol query; do the same.
 */
function withWholeScriptExecution(adapter) {
  const pool = adapter.underlyingDriver();
  return Object.assign(Object.create(adapter), {
    async executeScript(script) {
      try {
        await pool.query(script);
      } catch (error) {
        // Let adapter-pg translate the pg error into the DriverAdapterError shape the engine understands.
        adapter.onError(error);
      }
    },
  });
}

/**
 * The factory the schema engine receives (before bindMigrationAwareSqlAdapterFactory wraps it).
 * Shadow databases: a configured shadowDatabaseUrl is used as is; otherwise a throw-away database is created next to
 * the main one and dropped on dispose — after its pool is closed, since PostgreSQL refuses to drop a database with
 * open connections (adapter-pg 7.10 drops first, then closes, and the drop fails).
 */
export function createMigrationAwareFactory({ url, shadowDatabaseUrl, databaseOptional = false }) {
  if (!url) return databaseLessFactory();
  const main = pgConfigFromUrl(url);
  let connectable;

  return {
    provider: 'postgres',
    adapterName: '@prisma/adapter-pg',
    async connect() {
      connectable ??= databaseOptional ? existingOrMaintenance(main.config) : Promise.resolve(main.config);
      return withWholeScriptExecution(await new PrismaPg(await connectable, { schema: main.schema }).connect());
    },
    async connectToShadowDb() {
      if (shadowDatabaseUrl) {
        const shadow = pgConfigFromUrl(shadowDatabaseUrl);
        return withWholeScriptExecution(await new PrismaPg(shadow.config, { schema: shadow.schema }).connect());
      }
      const database = `prisma_migrate_shadow_db_${randomUUID()}`;
      await runAdminStatement(main.config, `CREATE DATABASE ${quoteIdent(database)}`, { fallbackDatabase: 'postgres' });
      const shadowFactory = new PrismaPg({ ...main.config, database }, { schema: main.schema });
      const adapter = await shadowFactory.connect();
      const originalDispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await originalDispose(); // ends the shadow pool
        await runAdminStatement(main.config, `DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`, {
          fallbackDatabase: 'postgres',
        });
      };
      return withWholeScriptExecution(adapter);
    },
  };
}

/**
 * The engine opens its main connection even for a diff between migrations and a schema file, which only needs the
 * server (for a shadow database). When the configured database does not exist yet, such commands connect to the
 * server's maintenance database instead — never commands that change the database (`databaseOptional` is false).
 */
async function existingOrMaintenance(config) {
  try {
    await runAdminStatement(config, 'SELECT 1');
    return config;
  } catch (error) {
    if (error?.code !== '3D000') throw error;
    return { ...config, database: 'postgres' };
  }
}

/** A factory for commands that need no database (diff between schema files); any connection attempt is refused. */
function databaseLessFactory() {
  const refuse = async () => {
    throw Object.assign(new Error('This command needs a database: set datasource.url in prisma.config.ts (DATABASE_URL).'), {
      code: 'P1012',
    });
  };
  return { provider: 'postgres', adapterName: '@prisma/adapter-pg', connect: refuse, connectToShadowDb: refuse };
}

/**
 * One statement on a short-lived connection (CREATE/DROP DATABASE). A shadow database is created from the main
 * database's connection; when that database does not exist yet (a `migrate diff` on a fresh machine), from
 * `fallbackDatabase` instead.
 */
export async function runAdminStatement(config, sql, { database = config.database, fallbackDatabase } = {}) {
  const { Client: _ignored, options: _searchPath, ...plain } = config;
  const client = new pg.Client({ ...plain, database });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    if (error?.code === '3D000' && fallbackDatabase && fallbackDatabase !== database) {
      return runAdminStatement(config, sql, { database: fallbackDatabase });
    }
    throw error;
  }
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}
