// The MCP conformance suite (@modelcontextprotocol/conformance, all server scenarios) against this app's HTTP entry.
// The suite's client sends no credential, and this server answers 401 to any request without one, so a forwarding
// proxy adds `Authorization: Bearer <key>` on the way in, the way a configured MCP client would; nothing else is
// changed. The REST API behind is a stand-in answering 401 (no scenario needs a real API call: the ones that call
// the suite's own fixture tools fail on the tool's absence first). Scenarios that need fixtures this server does not
// have (tools, resources, prompts named by the suite, sampling, elicitation, SSE streams of a stateful server) are
// in conformance-expected-failures.yml with the reason; the suite exits non-zero on a new failure and on a listed
// scenario that starts passing (stale baseline).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jest } from '@jest/globals';
import { createLogger } from '@talao/observability';
import { createMcpHttpServer } from './mcp-http.js';

jest.setTimeout(240_000);

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const SUITE = join(repoRoot, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const EXPECTED_FAILURES = fileURLToPath(new URL('../conformance-expected-failures.yml', import.meta.url));

let api: Server;
let mcp: Server;
let proxy: Server;
let proxyUrl: string;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  // It accepts the proxy's key at the MCP entry's check (GET /api/v1/me) and expects no other call.
  api = createServer((req, res) => {
    const me = req.url === '/api/v1/me';
    res.writeHead(me ? 200 : 401, { 'content-type': 'application/json' });
    res.end(JSON.stringify(me ? {} : { detail: 'stand-in API: no call expected' }));
  });
  const apiPort = await listen(api);
  // The proxy passes the Host and Origin the suite sent: the host check sees the suite's own requests.
  proxy = createServer();
  const proxyPort = await listen(proxy);
  proxy.close();
  mcp = createMcpHttpServer({
    gatewayUrl: `http://127.0.0.1:${apiPort}`,
    logger: createLogger({ name: 'mcp-conformance', level: 'silent' }),
    allowedHosts: [`127.0.0.1:${proxyPort}`, `localhost:${proxyPort}`],
  });
  const mcpPort = await listen(mcp);
  proxy = createServer((req, res) => {
    const upstream = request(
      {
        host: '127.0.0.1',
        port: mcpPort,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, authorization: 'Bearer talao_hml_conformance' },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(proxyPort, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${proxyPort}/mcp`;
});

afterAll(async () => {
  for (const server of [proxy, mcp, api]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

it('passes every server scenario except the listed fixture-dependent ones', async () => {
  const workDir = mkdtempSync(join(tmpdir(), 'talao-mcp-conformance-'));
  try {
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [SUITE, 'server', '--url', proxyUrl, '--suite', 'all', '--expected-failures', EXPECTED_FAILURES],
        {
          cwd: workDir,
          env: { ...process.env, NODE_OPTIONS: '' },
        },
      );
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.on('close', (exitCode) => resolve({ code: exitCode, output: text }));
    });
    process.stdout.write(
      `${output
        .split('\n')
        .filter((line) => /passed|failed|expected|stale|Total|✓|✗|scenario/i.test(line))
        .slice(-60)
        .join('\n')}\n`,
    );
    if (code !== 0) throw new Error(`conformance exited ${code}:\n${output.slice(-6000)}`);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
});
