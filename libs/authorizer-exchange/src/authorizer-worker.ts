// What the wiring of every worker that talks to the authorizers (issuer, canceller, received-sync) shares: the
// settings it reads, and the readiness and release of the database and the authorizer connections it opens.
import type { AuthorizerConnections, AuthorizerConnectionSettings } from './authorizer-connections.js';

/** What such a wiring reads: slices of the fragments of @talao/config, so the app's config fits as it is. */
export interface AuthorizerWorkerSettings {
  database: { url: string };
  certificates: { encryptionKey: string };
  authorizers: AuthorizerConnectionSettings;
  /** Jobs at once: each may hold a connection of each pool. */
  worker: { concurrency: number };
}

/** What the worker runtime reads of the worker's dependencies: readiness, and the release of everything opened. */
export interface AuthorizerWorkerLifecycle {
  readonly checks: { database: () => Promise<void> };
  close(): Promise<void>;
}

/** Ready when the database answers; closing releases the authorizers' agents, then the database's pools. */
export function authorizerWorkerLifecycle(
  database: { ping(): Promise<void>; close(): Promise<void> },
  authorizers: Pick<AuthorizerConnections, 'close'>,
): AuthorizerWorkerLifecycle {
  return {
    checks: { database: () => database.ping() },
    async close() {
      authorizers.close();
      await database.close();
    },
  };
}
