// Port probing: which ports are free, and whether something already listens on a given one.
import net from 'node:net';

/** Asks the kernel for a free TCP port on 127.0.0.1. */
export function findFreePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** True when `port` on 127.0.0.1 can be bound right now. */
export function isPortFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** `preferred` when it is free, else any free port. */
export async function preferPort(preferred) {
  return (await isPortFree(preferred)) ? preferred : findFreePort();
}

/**
 * Ports for every app and role: the preferred one when free (PORT overrides the gateway's), else any free port not
 * already handed out.
 * @param {Array<{ name: string, ports: Record<string, number> }>} apps
 * @param {{ log: { warn: (message: string) => void }, env?: NodeJS.ProcessEnv }} options
 * @returns {Promise<Record<string, Record<string, number>>>} port by app name and role
 */
export async function choosePorts(apps, { log, env = process.env }) {
  const taken = new Set();
  /** @type {Record<string, Record<string, number>>} */
  const chosen = {};
  for (const app of apps) {
    chosen[app.name] = {};
    for (const [role, preferred] of Object.entries(app.ports)) {
      const wanted = app.name === 'gateway' && role === 'http' && env.PORT ? Number(env.PORT) : preferred;
      let port = taken.has(wanted) ? await findFreePort() : await preferPort(wanted);
      while (taken.has(port)) port = await findFreePort();
      taken.add(port);
      chosen[app.name][role] = port;
      if (port !== wanted) log.warn(`port ${wanted} is busy; ${app.name} (${role}) uses ${port}`);
    }
  }
  return chosen;
}
