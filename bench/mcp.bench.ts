// npm run bench:mcp — what the MCP layer costs per tool call. The platform runs as real processes (simulator, issuer,
// gateway with its authorization server, MCP app); one agent calls `list_invoices` and `issue_invoice` through the
// MCP app (the SDK's client over streamable HTTP), with an API key and with an OAuth access token, and, interleaved
// call by call in the same run, the same REST operation straight on the gateway with the same credential (the
// baseline). Sequential calls, so the figures are latencies, not queueing. BENCH_MCP_LIST (300) and BENCH_MCP_ISSUE
// (100) calls per path. Goal (issue 20): MCP overhead ≤ 5 ms at p50.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Agent, fetch } from 'undici';
import { obtainTokens } from '@talao/authorization-server/testing';
import { sampleNfeRequest } from '@talao/fiscal-model/testing';
import { freePort } from '../e2e/issuance/support/app-processes.js';
import { startPlatform } from '../e2e/issuance/support/platform.js';
import { startMcp } from '../e2e/mcp/support.js';
import { withScratchDatabase } from './support/scratch-database.js';
import { percentile } from './support/percentile.js';

const LIST_CALLS = Number(process.env.BENCH_MCP_LIST ?? 300);
const ISSUE_CALLS = Number(process.env.BENCH_MCP_ISSUE ?? 100);
const WARMUP = 20;

interface Path {
  readonly name: string;
  readonly call: () => Promise<void>;
  readonly latencies: number[];
}

/** Every path once per round, in turn, so drift (GC, the database warming) weighs on all of them alike. */
async function interleaved(paths: Path[], rounds: number): Promise<void> {
  for (let round = 0; round < rounds + WARMUP; round++) {
    for (const path of paths) {
      const started = performance.now();
      await path.call();
      if (round >= WARMUP) path.latencies.push(performance.now() - started);
    }
  }
}

function report(paths: Path[]): void {
  const baseline = [...paths[0]!.latencies].sort((a, b) => a - b);
  const baseP50 = percentile(baseline, 50);
  for (const path of paths) {
    const sorted = [...path.latencies].sort((a, b) => a - b);
    const p50 = percentile(sorted, 50);
    const overhead = path === paths[0] ? '' : `  overhead p50 ${(p50 - baseP50).toFixed(2)} ms (×${(p50 / baseP50).toFixed(2)})`;
    console.log(
      `  ${path.name.padEnd(34)} p50 ${p50.toFixed(2)} ms  p90 ${percentile(sorted, 90).toFixed(2)} ms  p99 ${percentile(sorted, 99).toFixed(2)} ms  ${(
        1000 /
        (sorted.reduce((a, b) => a + b, 0) / sorted.length)
      ).toFixed(0)} calls/s${overhead}`,
    );
  }
}

async function mcpClient(url: string, credential: string): Promise<Client> {
  const client = new Client({ name: 'talao-bench', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${credential}` } } }),
  );
  return client;
}

await withScratchDatabase('talao_bench', async (databaseUrl) => {
  process.env.DATABASE_URL = databaseUrl;
  const mcpPort = await freePort();
  const platform = await startPlatform('bench-mcp', {
    issuerEnv: { LOG_LEVEL: 'warn' },
    gatewayEnv: {
      LOG_LEVEL: 'warn',
      MCP_PUBLIC_URL: `http://localhost:${mcpPort}/mcp`,
      RATE_LIMIT_CREATE_INVOICE: '1000000',
      RATE_LIMIT_LIST_INVOICES: '1000000',
      RATE_LIMIT_UNAUTHENTICATED: '1000000',
    },
  });
  const mcp = await startMcp(platform, { port: mcpPort, env: { LOG_LEVEL: 'warn' } });
  const clients: Client[] = [];
  try {
    const company = await platform.createCompany();
    const key = company.homologationKey;
    const issuer = `http://localhost:${new URL(platform.gatewayUrl).port}/oauth`;
    const oauth = await obtainTokens(issuer, { apiKey: key });
    const withKey = await mcpClient(mcp.url, key);
    const withToken = await mcpClient(mcp.url, oauth.accessToken);
    clients.push(withKey, withToken);
    const dispatcher = new Agent({ keepAliveTimeout: 2_000, keepAliveMaxTimeout: 2_000 });
    const rest = async (method: string, path: string, expected: number, body?: unknown) => {
      const response = await fetch(`${platform.gatewayUrl}${path}`, {
        dispatcher,
        method,
        headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      await response.arrayBuffer();
      if (response.status !== expected) throw new Error(`${method} ${path}: ${response.status}`);
    };
    const tool = async (client: Client, name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    };

    console.log(`mcp bench: sequential calls, ${LIST_CALLS} list_invoices and ${ISSUE_CALLS} issue_invoice per path (+${WARMUP} warm-up)`);
    const list: Path[] = [
      { name: 'REST GET /invoices (baseline)', call: () => rest('GET', '/api/v1/invoices?page_size=20', 200), latencies: [] },
      { name: 'MCP list_invoices, API key', call: () => tool(withKey, 'list_invoices', { page_size: 20 }), latencies: [] },
      { name: 'MCP list_invoices, OAuth token', call: () => tool(withToken, 'list_invoices', { page_size: 20 }), latencies: [] },
    ];
    await interleaved(list, LIST_CALLS);
    console.log('list_invoices:');
    report(list);

    const nfe = () => sampleNfeRequest();
    const issue: Path[] = [
      { name: 'REST POST /invoices (baseline)', call: () => rest('POST', '/api/v1/invoices', 201, nfe()), latencies: [] },
      { name: 'MCP issue_invoice, API key', call: () => tool(withKey, 'issue_invoice', nfe() as never), latencies: [] },
      { name: 'MCP issue_invoice, OAuth token', call: () => tool(withToken, 'issue_invoice', nfe() as never), latencies: [] },
    ];
    await interleaved(issue, ISSUE_CALLS);
    console.log('issue_invoice (authorized by the simulator):');
    report(issue);
    await dispatcher.close();
  } finally {
    for (const client of clients) await client.close();
    await mcp.process.kill('SIGTERM');
    await platform.stop();
  }
});
