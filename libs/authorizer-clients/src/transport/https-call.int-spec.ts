// Transport against real local TLS servers: exact bytes, timings, and the sent / not-sent line of every failure.
import { createServer as createHttpsServer, type Server } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { createTestCertificateAuthority } from '@talao/icp-test-ca';
import { loadPkcs12 } from '@talao/xml-signing';
import { callHttps } from './https-call.js';
import { MutualTlsAgentPool } from './mutual-tls-agents.js';

const ca = createTestCertificateAuthority();
const otherCa = createTestCertificateAuthority();
const serverCert = ca.issueServerCertificate(['127.0.0.1', 'localhost']);
const company = loadPkcs12(ca.issueA1({ taxId: '11222333000181', legalName: 'EMPRESA TESTE LTDA', password: 'x' }), 'x');
const stranger = loadPkcs12(otherCa.issueA1({ taxId: '11222333000181', legalName: 'EMPRESA TESTE LTDA', password: 'x' }), 'x');

type Behaviour = 'echo' | 'silent' | 'reset' | 'error503';
let behaviour: Behaviour = 'echo';
let server: Server;
let url: string;
const pools: MutualTlsAgentPool[] = [];
const pool = (caBundlePem?: string) => {
  const p = new MutualTlsAgentPool(caBundlePem ? { caBundlePem } : {});
  pools.push(p);
  return p;
};

beforeAll(async () => {
  server = createHttpsServer(
    { key: serverCert.keyPem, cert: serverCert.certificatePem, ca: [ca.caCertificatePem], requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (behaviour === 'silent') return;
        if (behaviour === 'reset') return req.socket.destroy();
        res.writeHead(behaviour === 'error503' ? 503 : 200, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`got:${Buffer.concat(chunks).toString('utf8')}`);
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/ws/service.asmx`;
});

afterAll(async () => {
  pools.forEach((p) => p.destroy());
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  behaviour = 'echo';
});

const post = (agentPool: MutualTlsAgentPool, credentials = company, target = url, readMs = 2_000) =>
  callHttps({
    method: 'POST',
    url: target,
    headers: { 'content-type': 'text/plain' },
    body: 'ação',
    agent: agentPool.agentFor(credentials),
    timeouts: { connectMs: 1_000, readMs },
  });

describe('callHttps with mutual TLS', () => {
  it('returns the exact bytes and the timings', async () => {
    const outcome = await post(pool(ca.caCertificatePem));
    expect(outcome.kind).toBe('response');
    if (outcome.kind !== 'response') return;
    expect(outcome.status).toBe(200);
    expect(outcome.body).toBe('got:ação');
    expect(outcome.exchange.request.headers['content-length']).toBe(String(Buffer.byteLength('ação')));
    expect(outcome.exchange.timing.connectedMs).toBeDefined();
    expect(outcome.exchange.timing.requestWrittenMs).toBeGreaterThanOrEqual(outcome.exchange.timing.connectedMs ?? 0);
    expect(outcome.exchange.timing.firstByteMs).toBeGreaterThanOrEqual(outcome.exchange.timing.requestWrittenMs ?? 0);
  });

  it('reuses one agent per certificate', () => {
    const p = pool(ca.caCertificatePem);
    expect(p.agentFor(company)).toBe(p.agentFor({ ...company }));
    expect(p.agentFor(company)).not.toBe(p.agentFor(stranger));
  });

  it('does not trust the server without the CA bundle: not sent', async () => {
    const outcome = await post(pool());
    expect(outcome).toMatchObject({ kind: 'failure', reason: 'tls', sent: false });
  });

  it('is refused by the server with a certificate from another CA: not sent', async () => {
    const outcome = await post(pool(ca.caCertificatePem), stranger);
    expect(outcome).toMatchObject({ kind: 'failure', reason: 'tls', sent: false });
  });

  it('classifies a refused connection as not sent', async () => {
    const closed = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await post(pool(ca.caCertificatePem), company, `https://127.0.0.1:${port}/x`);
    expect(outcome).toMatchObject({ kind: 'failure', reason: 'connection-refused', sent: false });
  });

  it('classifies a handshake that never completes as a connect timeout, not sent', async () => {
    const mute: TcpServer = createTcpServer(() => undefined);
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    const outcome = await post(pool(ca.caCertificatePem), company, `https://127.0.0.1:${(mute.address() as AddressInfo).port}/x`);
    expect(outcome).toMatchObject({ kind: 'failure', reason: 'connect-timeout', sent: false });
    mute.close();
  });

  it('classifies silence after sending as a read timeout, sent', async () => {
    behaviour = 'silent';
    const outcome = await post(pool(ca.caCertificatePem), company, url, 300);
    expect(outcome).toMatchObject({ kind: 'failure', reason: 'read-timeout', sent: true });
    expect(outcome.exchange.timing.requestWrittenMs).toBeDefined();
  });

  it('classifies a reset after sending as sent', async () => {
    behaviour = 'reset';
    const outcome = await post(pool(ca.caCertificatePem));
    expect(outcome).toMatchObject({ kind: 'failure', reason: 'connection-reset', sent: true });
  });

  it('leaves nothing on a kept-alive socket, however many calls queue for it', async () => {
    // One socket for 40 calls: all but the first wait in the agent's queue and get the socket as the call before them
    // releases it. A listener left on it per call would keep every call's request, response and exchange alive.
    const p = new MutualTlsAgentPool({ caBundlePem: ca.caCertificatePem, maxSockets: 1 });
    pools.push(p);
    const agent = p.agentFor(company);
    const listeners = () =>
      Object.values(agent.freeSockets)
        .flat()
        .map((socket) => socket!.listenerCount('secureConnect') + socket!.listenerCount('connect'));
    expect((await post(p)).kind).toBe('response');
    const afterOne = listeners();
    expect(afterOne).toHaveLength(1);
    const outcomes = await Promise.all(Array.from({ length: 40 }, () => post(p)));
    expect(outcomes.every((outcome) => outcome.kind === 'response' && outcome.exchange.timing.connectedMs !== undefined)).toBe(true);
    expect(listeners()).toEqual(afterOne);
  });

  it('hands HTTP errors back as responses', async () => {
    behaviour = 'error503';
    const outcome = await post(pool(ca.caCertificatePem));
    expect(outcome).toMatchObject({ kind: 'response', status: 503 });
  });
});
