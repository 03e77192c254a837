// The gateway issues without the XML, signing or schema libraries: its modules are imported in a child process whose
// module resolution is recorded, and none of libxml2-wasm, xml-crypto or node-forge may be among them. Loading the
// module that consults the authorizer (on the first GET /invoices/{key}) shows the probe sees them when they load.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const HEAVY = /\/node_modules\/(libxml2-wasm|xml-crypto|node-forge)\//;

// Runs in the child: records every resolved URL (a resolve hook on the hooks thread posts each one), imports the
// given modules, then prints the URLs once a last sentinel import shows every earlier one has arrived.
const PROBE = `
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
const hooks = 'export let port; export function initialize(data) { port = data.port; }' +
  'export async function resolve(specifier, context, next) { const r = await next(specifier, context); port.postMessage(r.url); return r; }';
const { port1, port2 } = new MessageChannel();
const urls = [];
const sentinel = 'data:text/javascript,export default "sentinel"';
const done = new Promise((resolve) => port1.on('message', (url) => (url === sentinel ? resolve() : urls.push(url))));
register('data:text/javascript,' + encodeURIComponent(hooks), { data: { port: port2 }, transferList: [port2] });
for (const path of JSON.parse(process.env.PROBE_MODULES)) await import(new URL(path, 'file://' + process.cwd() + '/').href);
await import(sentinel);
await done;
port1.close();
process.stdout.write(JSON.stringify(urls));
`;

function loadedBy(modules: string[]): string[] {
  const result = spawnSync(process.execPath, ['--import', './bench/support/register-ts.mjs', '--input-type=module', '-e', PROBE], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, PROBE_MODULES: JSON.stringify(modules) },
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`the probe failed (${result.status}):\n${result.stderr}`);
  return JSON.parse(result.stdout) as string[];
}

describe('the gateway’s modules', () => {
  it('load none of libxml2-wasm, xml-crypto, node-forge: the whole app (every controller, the create path)', () => {
    const loaded = loadedBy(['apps/gateway/src/gateway-app.ts', 'apps/gateway/src/admin-cli/commands.ts']);
    expect(loaded.some((url) => url.endsWith('/libs/issuance/src/create/create-invoice.ts'))).toBe(true);
    expect(loaded.some((url) => url.includes('/node_modules/@nestjs/core/'))).toBe(true);
    expect(loaded.filter((url) => HEAVY.test(url))).toEqual([]);
  });

  it('the authorizer consult, loaded on first use, is what brings them', () => {
    const loaded = loadedBy(['apps/gateway/src/invoices/authorizer-consult.ts']);
    const heavy = new Set(loaded.flatMap((url) => HEAVY.exec(url)?.[1] ?? []));
    expect([...heavy].sort()).toEqual(['libxml2-wasm', 'node-forge', 'xml-crypto']);
  });
});
