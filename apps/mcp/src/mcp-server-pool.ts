// Building an McpServer (12 tools, 8 prompts, their zod schemas) costs milliseconds, and stateless streamable HTTP
// wants one per request (a server serves one transport at a time). Servers are therefore reused: a request takes an
// idle one, connects its own transport, and gives it back once that transport is closed. The caller's credential is
// not stored on the server: its tools read it from the request's async context (AsyncLocalStorage), so a handler still
// running after its response closed keeps its own caller's credential, and a server between requests holds none.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpServer } from '@talao/mcp-tools';

const MAX_IDLE = 32;

export class McpServerPool {
  private readonly idle: McpServer[] = [];
  private readonly credential = new AsyncLocalStorage<string>();

  constructor(private readonly gatewayUrl: string) {}

  /** Runs `work` with an McpServer whose tools call the API with `authorization`; the server is released after `done`. */
  async serve(authorization: string, work: (server: McpServer, release: () => Promise<void>) => Promise<void>): Promise<void> {
    const server = this.idle.pop() ?? this.create();
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await server.close().catch(() => undefined);
      if (this.idle.length < MAX_IDLE) this.idle.push(server);
    };
    await this.credential.run(authorization, () => work(server, release));
  }

  private create(): McpServer {
    return createMcpServer({
      gatewayUrl: this.gatewayUrl,
      authorization: () => {
        const authorization = this.credential.getStore();
        if (!authorization) throw new Error('no caller credential in this async context');
        return authorization;
      },
    });
  }
}
