// JSON-RPC 2.0 over stdin/stdout, one JSON object per line: the protocol Prisma's CLI speaks to a schema engine.
/* global WebAssembly */
import { createInterface } from 'node:readline';

/** Prisma's CLI shows `data.message` (with `data.error_code`) for known errors and treats `is_panic` as a crash. */
export function toRpcError(error) {
  const panic = error instanceof WebAssembly.RuntimeError;
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: 4466,
    message: 'An error happened. Check the data field for details.',
    data: {
      is_panic: panic,
      message,
      ...(typeof error?.code === 'string' && /^P\d{4}$/.test(error.code) ? { error_code: error.code } : {}),
      ...(error?.meta ? { meta: error.meta } : {}),
      ...(panic ? { error: { message }, backtrace: error.stack } : {}),
    },
  };
}

/**
 * Serves requests one at a time, in order (the engine is not re-entrant, and the CLI waits for each answer anyway).
 * `handle(method, params, { print })` returns the result or throws; `print` asks the CLI to write to its stdout.
 */
export function serveJsonRpc(handle, { input = process.stdin, output = process.stdout } = {}) {
  let nextOwnId = 1_000_000; // ids of our own requests to the CLI ("print"); the CLI's ids count up from 1
  const write = (message) => output.write(`${JSON.stringify(message)}\n`);
  const print = (content) => write({ jsonrpc: '2.0', id: nextOwnId++, method: 'print', params: { content } });

  let queue = Promise.resolve();
  const lines = createInterface({ input, crlfDelay: Infinity });
  lines.on('line', (line) => {
    if (line.trim() === '') return;
    let request;
    try {
      request = JSON.parse(line);
    } catch {
      write({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      return;
    }
    if (typeof request.method !== 'string') return; // the CLI's answer to one of our "print" requests
    queue = queue.then(async () => {
      try {
        const result = await handle(request.method, request.params ?? {}, { print });
        if (request.id !== undefined) write({ jsonrpc: '2.0', id: request.id, result: result ?? {} });
      } catch (error) {
        if (request.id !== undefined) write({ jsonrpc: '2.0', id: request.id, error: toRpcError(error) });
      }
    });
  });
  return new Promise((resolve) => lines.on('close', () => queue.then(resolve)));
}
