// The app supervisor with real child processes: readiness through /readyz, orderly stop, and a dying app reported.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startApps } from './apps.mjs';
import { findFreePort } from './ports.mjs';

const FAKE_APP = `
import http from 'node:http';
const startedAt = Date.now();
const server = http.createServer((req, res) => {
  const ready = Date.now() - startedAt > 300; // not ready at first, like an app still connecting to its database
  if (req.url === '/readyz' && req.headers.authorization !== 'Bearer sesame') return res.writeHead(401).end();
  res.writeHead(req.url === '/readyz' && !ready ? 503 : 200).end(process.env.GREETING ?? '');
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(JSON.stringify({ level: 30, msg: 'fake listening' })));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'talao-apps-'));
  writeFileSync(path.join(root, 'fake.mjs'), FAKE_APP);
  writeFileSync(path.join(root, 'crash.mjs'), 'process.exit(3);');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('starts an app with its environment, waits for its readiness URL (with headers) and stops it with SIGTERM', async () => {
  const port = await findFreePort();
  const unexpected: string[] = [];
  const apps = startApps({
    root,
    apps: [{ name: 'fake', entry: 'fake.mjs' }],
    envFor: () => ({ GREETING: 'olá', PORT: String(port) }),
    readinessFor: () => ({ url: `http://127.0.0.1:${port}/readyz`, headers: { authorization: 'Bearer sesame' } }),
    onUnexpectedExit: (name: string, how: string) => unexpected.push(`${name} ${how}`),
  });
  try {
    await apps.ready;
    const response = await fetch(`http://127.0.0.1:${port}/readyz`, { headers: { authorization: 'Bearer sesame' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('olá');
  } finally {
    await apps.stopAll();
  }
  expect(unexpected).toEqual([]);
  expect(apps.running[0]!.child.exitCode).toBe(0);
  await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
}, 30_000);

it('reports an app that dies before it is ready', async () => {
  const unexpected: string[] = [];
  const apps = startApps({
    root,
    apps: [{ name: 'crash', entry: 'crash.mjs' }],
    envFor: () => ({}),
    readinessFor: () => ({ url: 'http://127.0.0.1:9/readyz' }),
    onUnexpectedExit: (name: string, how: string) => unexpected.push(`${name} ${how}`),
  });
  await expect(apps.ready).rejects.toThrow('crash exited before it was ready (code 3)');
  expect(unexpected).toEqual(['crash code 3']);
}, 30_000);
