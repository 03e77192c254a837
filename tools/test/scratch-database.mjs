// A PostgreSQL database of its own for one run (`npm test`, a benchmark): created on the server the admin URL names,
// reached at the same URL with its own name, dropped at the end. Both statements run on the admin URL's database: a
// database is neither created nor dropped from a connection to itself.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A name no other run on the machine picks: the time (base 36) and three random bytes. */
export function uniqueRunId() {
  return `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}

/**
 * @param {URL | string} adminUrl
 * @param {string} sql
 */
async function adminQuery(adminUrl, sql) {
  const client = new pg.Client({ connectionString: adminUrl.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Creates the database `name` on the server of `adminUrl` and resolves with its URL.
 * @param {URL | string} adminUrl
 * @param {string} name
 * @returns {Promise<string>}
 */
export async function createDatabase(adminUrl, name) {
  await adminQuery(adminUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Drops the database `name`, closing the connections still open on it.
 * @param {URL | string} adminUrl
 * @param {string} name
 * @returns {Promise<void>}
 */
export function dropDatabase(adminUrl, name) {
  return adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
