// The SSRF guard at connect time. A check of the URL at registration is not enough: the name can be re-pointed to
// 127.0.0.1 afterwards (DNS rebinding), or resolve differently for the dispatcher. So every connection undici opens
// goes through three gates, each sufficient against the case it covers:
//   1. an IP literal in the URL is judged before any socket exists (Node does no lookup for a literal);
//   2. the name is resolved by our lookup, which refuses the connection when any address is not allowed, so no
//      packet is sent to an internal address;
//   3. the socket's remoteAddress, the address actually connected to, is judged before undici sends the request.
// A refusal is a TargetRefusedError (classified `target_refused` in the delivery log).
import { lookup as dnsLookup } from 'node:dns/promises';
import { type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { createSecureContext, rootCertificates } from 'node:tls';
import { buildConnector } from 'undici';
import { addressRefusal, type TargetPolicy } from './address-policy.js';

export class TargetRefusedError extends Error {
  readonly code = 'WEBHOOK_TARGET_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

/** Every address of a name, as dns.lookup({ all: true }) answers; injectable so tests can resolve a name to anything. */
export type HostResolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: HostResolver = (hostname) => dnsLookup(hostname, { all: true, order: 'verbatim' });

/** The first reason any of the addresses is refused (a name that mixes public and internal addresses is refused). */
export function resolvedRefusal(hostname: string, addresses: readonly LookupAddress[], policy: TargetPolicy): string | undefined {
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, policy);
    if (refusal) return `${hostname} resolves to ${refusal}`;
  }
  return undefined;
}

/** http:// is the local-development exception: only to a loopback address (registration checks the name too). */
export function connectRefusal(address: string | undefined, protocol: string, policy: TargetPolicy): string | undefined {
  if (address === undefined) return 'the socket has no remote address';
  const refusal = addressRefusal(address, policy);
  if (refusal) return refusal;
  if (protocol !== 'https:' && addressRefusal(address, { allowLoopback: false }) === undefined) {
    return `${protocol}// is accepted to a loopback address only`;
  }
  return undefined;
}

/** A net.connect `lookup` that resolves with `resolver` and refuses the connection when an address is not allowed. */
export function guardedLookup(policy: TargetPolicy, resolver: HostResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname).then(
      (resolved) => {
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const addresses = family ? resolved.filter((a) => a.family === family) : resolved;
        const refusal = resolvedRefusal(hostname, resolved, policy);
        if (refusal) return callback(new TargetRefusedError(refusal), '');
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        if (options.all) return callback(null, addresses);
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

export interface GuardedConnectorOptions {
  policy: TargetPolicy;
  resolver?: HostResolver;
  /** Connect (TCP + TLS) timeout in milliseconds. */
  timeoutMs: number;
  /** CA certificates (PEM) trusted besides Node's bundled roots, e.g. a private PKI's. */
  ca?: string | string[];
}

type Connector = (options: buildConnector.Options, callback: buildConnector.Callback) => Socket | undefined;

/**
 * An undici `connect` function: undici's own connector behind the three gates. It returns the connecting socket as
 * undici's connector does (its declared type says void), which is what lets undici cancel a connection attempt when
 * the request is aborted (the per-attempt deadline) instead of leaving it to the connect timeout.
 */
export function guardedConnector({ policy, resolver = systemResolver, timeoutMs, ca }: GuardedConnectorOptions): buildConnector.connector {
  // `ca` given to TLS replaces the default trust store, so the extra CAs join Node's bundled roots; in one secure
  // context made here, since a `ca` list passed to each connection would be parsed again by each connection.
  const trusted = ca ? { secureContext: createSecureContext({ ca: [...rootCertificates, ...(typeof ca === 'string' ? [ca] : ca)] }) } : {};
  const connect = buildConnector({ timeout: timeoutMs, lookup: guardedLookup(policy, resolver), ...trusted }) as Connector;
  const guarded: Connector = (options, callback) => {
    if (isIP(options.hostname)) {
      const refusal = connectRefusal(options.hostname, options.protocol, policy);
      if (refusal) {
        callback(new TargetRefusedError(refusal), null);
        return undefined;
      }
    }
    return connect(options, (error, socket) => {
      if (error) return callback(error, null);
      const refusal = connectRefusal((socket as Socket).remoteAddress, options.protocol, policy);
      if (refusal) {
        (socket as Socket).destroy();
        return callback(new TargetRefusedError(`connected to ${refusal}`), null);
      }
      callback(null, socket as Socket);
    });
  };
  return guarded;
}
