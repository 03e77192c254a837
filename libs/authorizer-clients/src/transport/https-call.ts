import { type IncomingHttpHeaders } from 'node:http';
import { type Agent, request } from 'node:https';
import { type RecordedExchange, type TransportFailureReason, type TransportOutcome } from './exchange.js';

export interface TransportTimeouts {
  /** From the start of the call until the TLS handshake completes (or a kept-alive socket is assigned). */
  connectMs: number;
  /** From the moment the request is fully written until the whole response has arrived. */
  readMs: number;
}

export const DEFAULT_TIMEOUTS: TransportTimeouts = { connectMs: 5_000, readMs: 30_000 };

export interface HttpsCall {
  method: 'GET' | 'HEAD' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  agent: Agent;
  timeouts?: Partial<TransportTimeouts>;
  /** The response body is binary (DANFSe PDF): it is recorded as base64 instead of UTF-8. */
  binaryResponse?: boolean;
  /** Refuse answers larger than this (hostile or broken server). */
  maxResponseBytes?: number;
}

const DEFAULT_MAX_RESPONSE_BYTES = 20 * 1024 * 1024;

interface CallProgress {
  tcpConnected: boolean;
  secured: boolean;
  written: boolean;
  responding: boolean;
}

class CallAbort extends Error {
  constructor(
    readonly reason: TransportFailureReason,
    message: string,
  ) {
    super(message);
  }
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
}

/**
 * Failure classification. "Sent" means the request body was completely handed to the socket: before that, the
 * server cannot hold a complete request. A TLS alert received before any response byte means the server refused the
 * connection at the TLS layer (with TLS 1.3 the client certificate is checked after the client may already have
 * written the request) — the application never saw it, so it counts as not sent.
 */
function classifyError(error: unknown, progress: CallProgress): { reason: TransportFailureReason; sent: boolean } {
  const { written, responding } = progress;
  if (error instanceof CallAbort) return { reason: error.reason, sent: error.reason !== 'connect-timeout' };
  const code = errorCode(error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { reason: 'dns', sent: false };
  if (code === 'ECONNREFUSED') return { reason: 'connection-refused', sent: false };
  const tls = /^ERR_(SSL|TLS)_|CERT|UNABLE_TO_(GET|VERIFY)|SELF_SIGNED/.test(code);
  if (tls && (!written || (!responding && code.includes('_ALERT_')))) return { reason: 'tls', sent: false };
  // A reset between TCP connect and the end of the handshake is the server refusing the TLS session (e.g. our client
  // certificate): some servers close without an alert.
  if (!written && progress.tcpConnected && !progress.secured) return { reason: 'tls', sent: false };
  if (!written) return { reason: 'network', sent: false };
  return { reason: 'connection-reset', sent: true };
}

export function callHttps(call: HttpsCall): Promise<TransportOutcome> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...call.timeouts };
  const body = call.body ?? '';
  const headers = { ...call.headers, ...(call.method === 'POST' ? { 'content-length': String(Buffer.byteLength(body)) } : {}) };
  const start = performance.now();
  const elapsed = () => Math.round((performance.now() - start) * 1000) / 1000;
  const exchange: RecordedExchange = {
    request: { method: call.method, url: call.url, headers, body },
    timing: { startedAt: new Date().toISOString(), totalMs: 0 },
  };

  return new Promise((resolve) => {
    const progress: CallProgress = { tcpConnected: false, secured: false, written: false, responding: false };
    let settled = false;
    let readTimer: NodeJS.Timeout | undefined;
    let forgetSocket: (() => void) | undefined;
    const finish = (outcome: TransportOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(readTimer);
      forgetSocket?.();
      exchange.timing.totalMs = elapsed();
      resolve(outcome);
    };
    const fail = (error: unknown) => {
      const { reason, sent } = classifyError(error, progress);
      const detail = error instanceof Error ? `${errorCode(error) || error.name}: ${error.message}` : String(error);
      finish({ kind: 'failure', sent, reason, detail, exchange });
    };

    const req = request(call.url, { method: call.method, headers, agent: call.agent });
    const connectTimer = setTimeout(
      () => req.destroy(new CallAbort('connect-timeout', `no connection within ${timeouts.connectMs} ms`)),
      timeouts.connectMs,
    );
    const connected = () => {
      progress.secured = true;
      if (exchange.timing.connectedMs === undefined) exchange.timing.connectedMs = elapsed();
      clearTimeout(connectTimer);
    };
    req.on('socket', (socket) => {
      // A socket that is no longer connecting arrives already secured: a kept-alive one from the agent's free list, or
      // one another call just released and the agent handed to this call from its queue (for that one Node does not
      // set req.reusedSocket, so that flag cannot tell). Only a fresh socket needs the connection events, and their
      // listeners come off when the call ends: a kept-alive socket outlives thousands of calls, and a listener left on
      // it keeps its call (request, response, recorded exchange) alive as long as the socket.
      if (!socket.connecting) {
        progress.tcpConnected = true;
        connected();
        return;
      }
      const tcpConnected = () => (progress.tcpConnected = true);
      socket.once('connect', tcpConnected);
      socket.once('secureConnect', connected);
      forgetSocket = () => {
        socket.off('connect', tcpConnected);
        socket.off('secureConnect', connected);
      };
    });
    req.on('error', fail);
    req.on('response', (res) => {
      progress.responding = true;
      exchange.timing.firstByteMs = elapsed();
      const chunks: Buffer[] = [];
      let size = 0;
      const limit = call.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) req.destroy(new CallAbort('malformed-response', `response larger than ${limit} bytes`));
        else chunks.push(chunk);
      });
      res.on('error', fail);
      res.on('aborted', () => fail(new CallAbort('connection-reset', 'response aborted')));
      res.on('end', () => {
        if (!res.complete) return fail(new CallAbort('connection-reset', 'response truncated'));
        const bytes = Buffer.concat(chunks);
        const text = call.binaryResponse ? bytes.toString('base64') : bytes.toString('utf8');
        exchange.response = { status: res.statusCode ?? 0, headers: flattenHeaders(res.headers), body: text };
        finish({ kind: 'response', status: res.statusCode ?? 0, body: text, exchange });
      });
    });
    // 'finish' fires once the whole request has been flushed to the socket (it is not emitted when the request is
    // destroyed first): from then on the authorizer may hold a complete request, and any failure is an unknown outcome.
    req.on('finish', () => {
      progress.written = true;
      connected();
      exchange.timing.requestWrittenMs = elapsed();
      if (!settled) {
        readTimer = setTimeout(
          () => req.destroy(new CallAbort('read-timeout', `no complete response within ${timeouts.readMs} ms after sending`)),
          timeouts.readMs,
        );
      }
    });
    req.end(body);
  });
}
