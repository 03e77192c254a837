// The engine's one-shot `cli` subcommands, which Prisma's CLI runs before `migrate dev`/`db push` to make sure the
// database exists. Failures are reported the way the native engine does: JSON log lines on stderr (the CLI skips the
// first line and looks for an ERROR from schema_engine::logger carrying `error_code` and `message`).
import pg from 'pg';
import { pgConfigFromUrl, quoteIdent, runAdminStatement } from './postgres-adapter.mjs';

function logLine(level, fields) {
  process.stderr.write(`${JSON.stringify({ timestamp: new Date().toISOString(), level, fields, target: 'schema_engine::logger' })}\n`);
}

/** Maps a pg/network error to the Prisma error code the CLI branches on (P1003 = database missing → create it). */
export function describeConnectionError(error, config) {
  const where = `${config.host}:${config.port}`;
  switch (error?.code) {
    case '3D000':
      return { error_code: 'P1003', message: `Database \`${config.database}\` does not exist on the database server at \`${where}\`.` };
    case '28P01':
    case '28000':
      return {
        error_code: 'P1000',
        message: `Authentication failed against database server at \`${where}\`, the provided database credentials for \`${config.user ?? ''}\` are not valid.`,
      };
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
    case 'ETIMEDOUT':
      return {
        error_code: 'P1001',
        message: `Can't reach database server at \`${where}\`\n\nPlease make sure your database server is running at \`${where}\`.`,
      };
    default:
      return { error_code: 'P1000', message: error instanceof Error ? error.message : String(error) };
  }
}

async function canConnect(config) {
  const { Client: _ignored, ...plain } = config;
  const client = new pg.Client(plain);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => {});
  }
}

export async function runCliCommand(command, datasource) {
  logLine('INFO', { message: `Starting schema engine CLI command ${command}` });
  if (!datasource?.url) {
    logLine('ERROR', { error_code: 'P1012', message: 'No datasource URL given (--datasource {"url": …}).' });
    return 1;
  }
  const { config } = pgConfigFromUrl(datasource.url);
  try {
    switch (command) {
      case 'can-connect-to-database':
        await canConnect(config);
        return 0;
      case 'create-database':
        await runAdminStatement(config, `CREATE DATABASE ${quoteIdent(config.database)}`, { database: 'postgres' });
        process.stdout.write(`Database '${config.database}' was successfully created.\n`);
        return 0;
      case 'drop-database':
        await runAdminStatement(config, `DROP DATABASE IF EXISTS ${quoteIdent(config.database)} WITH (FORCE)`, { database: 'postgres' });
        process.stdout.write(`The database was successfully dropped.\n`);
        return 0;
      default:
        logLine('ERROR', { error_code: 'P1000', message: `Unknown schema engine CLI command: ${command}` });
        return 1;
    }
  } catch (error) {
    logLine('ERROR', describeConnectionError(error, config));
    return 1;
  }
}
