import { createHash, X509Certificate } from 'node:crypto';
import { Agent, type AgentOptions } from 'node:https';
import { createSecureContext } from 'node:tls';

/** The company's A1 certificate as PEM (from `loadPkcs12`), plus the authorizers' CA chain. */
export interface MutualTlsCredentials {
  privateKeyPem: string;
  certificatePem: string;
}

export interface MutualTlsAgentOptions {
  /**
   * Trusted roots for the authorizers' server certificates. ICP-Brasil and the national environment's chains are
   * not in Node's default store, so the bundle is explicit; when absent, Node's default store is used.
   */
  caBundlePem?: string | readonly string[];
  /**
   * TLS 1.2 by default: the server accepts or refuses the client certificate during the handshake, before any request
   * byte leaves, so a refusal is certainly "not sent". Under TLS 1.3 the refusal arrives after the client may have
   * written the request, and would look like a reset after sending (an unknown outcome). The SEFAZ endpoints speak 1.2.
   */
  maxTlsVersion?: 'TLSv1.2' | 'TLSv1.3';
  /** Sockets kept open per authorizer host (keep-alive), per certificate. */
  maxSockets?: number;
}

const MAX_REMEMBERED_CERTIFICATES = 1000;

/**
 * One keep-alive agent per company certificate (by SHA-256 fingerprint) and CA bundle: TLS sessions and sockets are
 * reused across calls of the same company, and a certificate is never presented on another company's connection.
 */
export class MutualTlsAgentPool {
  private readonly agents = new Map<string, Agent>();
  private readonly ca: string[] | undefined;
  private readonly caDigest: string;

  constructor(private readonly options: MutualTlsAgentOptions = {}) {
    const bundle = options.caBundlePem;
    this.ca = bundle === undefined ? undefined : typeof bundle === 'string' ? [bundle] : [...bundle];
    this.caDigest = createHash('sha256')
      .update(this.ca?.join('\n') ?? 'default-store')
      .digest('hex');
  }

  /** Parsing a PEM certificate costs about as much as a whole request's transport: done once per certificate text. */
  private readonly fingerprints = new Map<string, string>();

  private fingerprintOf(certificatePem: string): string {
    let fingerprint = this.fingerprints.get(certificatePem);
    if (fingerprint === undefined) {
      fingerprint = new X509Certificate(certificatePem).fingerprint256;
      if (this.fingerprints.size >= MAX_REMEMBERED_CERTIFICATES) this.fingerprints.delete(this.fingerprints.keys().next().value as string);
      this.fingerprints.set(certificatePem, fingerprint);
    }
    return fingerprint;
  }

  agentFor(credentials: MutualTlsCredentials): Agent {
    const fingerprint = this.fingerprintOf(credentials.certificatePem);
    const cacheKey = `${fingerprint}|${this.caDigest}`;
    let agent = this.agents.get(cacheKey);
    if (!agent) {
      agent = new Agent({ keepAlive: true, maxSockets: this.options.maxSockets ?? 16, ...this.tlsOptions(credentials) });
      this.agents.set(cacheKey, agent);
    }
    return agent;
  }

  /**
   * The key, certificate and CA bundle as one secure context, built once per agent. Given as separate options instead,
   * Node's https.Agent concatenates their PEM texts into the pool key it computes on every request (kilobytes, the
   * whole CA bundle included), and tls.connect parses all of them again for every new connection. A context that
   * cannot be built (unreadable key or certificate) is left to fail per connection as before: a TLS failure before
   * sending, not a throw here.
   */
  private tlsOptions(credentials: MutualTlsCredentials): AgentOptions {
    const tls = {
      key: credentials.privateKeyPem,
      cert: credentials.certificatePem,
      ...(this.ca ? { ca: this.ca } : {}),
      minVersion: 'TLSv1.2' as const,
      maxVersion: this.options.maxTlsVersion ?? 'TLSv1.2',
    };
    try {
      return { secureContext: createSecureContext(tls) };
    } catch {
      return tls;
    }
  }

  /** Closes every pooled socket (process shutdown, tests). */
  destroy(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
    this.fingerprints.clear();
  }
}
