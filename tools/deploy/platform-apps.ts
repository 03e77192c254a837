// What the deployment tests know of the apps, read from the repository rather than listed again: the apps are the
// folders under apps/ with an entry point, their port and its variable come from the launcher's app table
// (tools/start/app-table.mjs), a worker's queue from its main.ts (`queue: QUEUE_NAMES.<name>`).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { QUEUE_NAMES } from '@talao/queue-contracts';
import { APPS, appNamed } from '../../tools/start/app-table.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Never deployed to production (docs/architecture.md): the authorizer simulator stands in for SEFAZ in tests, local
 * runs and Compose demos. No Kubernetes manifests.
 */
export const LOCAL_ONLY_APPS = new Set(['authorizer-sim']);
/**
 * Deployed, but with no database, queue or secret of their own: the MCP app reaches the platform only through the
 * gateway's REST API with each caller's credential (SPEC.md Authentication 7).
 */
export const STATELESS_APPS = new Set(['mcp']);

// An app is a folder under apps/ with a package.json and an entry point (src/main.ts); a folder still being written
// (no main.ts yet) is not runnable, so not yet required to be wired.
export const appNames = readdirSync(path.join(root, 'apps'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .filter((entry) => ['package.json', 'src/main.ts'].every((file) => existsSync(path.join(root, 'apps', entry.name, file))))
  .map((entry) => entry.name)
  .sort();
export const deployedApps = appNames.filter((name) => !LOCAL_ONLY_APPS.has(name));
export const statefulApps = deployedApps.filter((name) => !STATELESS_APPS.has(name));

/** The queue a worker consumes (its main.ts names it from QUEUE_NAMES); undefined for an HTTP app. */
export function appQueue(name: string): string | undefined {
  const main = readFileSync(path.join(root, 'apps', name, 'src', 'main.ts'), 'utf8');
  const key = /\bqueue:\s*QUEUE_NAMES\.(\w+)/.exec(main)?.[1];
  if (key === undefined) return undefined;
  const queue = (QUEUE_NAMES as Record<string, string>)[key];
  if (!queue) throw new Error(`apps/${name}/src/main.ts names QUEUE_NAMES.${key}, which does not exist`);
  return queue;
}

/** The launcher's context with every field an app's env() reads; values are irrelevant, only ports are compared. */
const launcherContext = {
  databaseUrl: 'postgresql://talao@postgres:5432/talao',
  redisUrl: 'redis://redis:6379',
  redisPrefix: 'talao:',
  secrets: { adminToken: 'a', certificateEncryptionKey: 'k', simulatorControlToken: 's' },
  ports: Object.fromEntries(APPS.map((app) => [app.name, app.ports])),
  technicalResponsible: { cnpj: '0', contact: 'c', email: 'e', phone: 'p' },
  simulator: { dataDir: '/data' },
};

/** The app's one serving port (HTTP or health) and the variable that sets it, as the launcher sets them. */
export function appPort(name: string): { variable: string; number: number } {
  const app = appNamed(name);
  const ports = Object.values(app.ports);
  if (ports.length !== 1) throw new Error(`${name} has ${ports.length} ports in the app table; the manifests expect one`);
  const number = ports[0]!;
  const environment = app.env(launcherContext);
  const variable = Object.keys(environment).find((key) => key.endsWith('PORT') && environment[key] === String(number));
  if (!variable) throw new Error(`${name}: no *PORT variable set to ${number} in the app table`);
  return { variable, number };
}
