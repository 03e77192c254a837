// Loading a PKCS#12 (node-forge) costs tens of milliseconds; a worker keeps the parsed certificate and its signer
// per certificate id, so a company's calls after the first pay nothing. A replaced certificate has a new id.
import type { MutualTlsCredentials } from '@talao/authorizer-clients';
import { type A1Certificate, CertificateError, createSigner, loadPkcs12, type XmlSigner } from '@talao/xml-signing';

export interface LoadedCertificate {
  certificate: A1Certificate;
  signer: XmlSigner;
  /** The same certificate as the client side of the authorizer's mutual TLS. */
  credentials: MutualTlsCredentials;
}

export class CertificateCache {
  private readonly entries = new Map<string, LoadedCertificate>();
  private readonly pending = new Map<string, Promise<LoadedCertificate | null>>();

  constructor(private readonly maxEntries = 500) {}

  load(id: string, pkcs12: Buffer, password: string): LoadedCertificate {
    return this.entries.get(id) ?? this.parse(id, pkcs12, password);
  }

  /**
   * The parsed certificate for `id`; `unseal` (decrypting the stored PKCS#12) is called only on a cache miss, and
   * once for concurrent misses of the same id (a worker starting with 16 jobs of one company parses it once, not 16
   * times).
   */
  loadOrUnseal(id: string, unseal: () => Promise<{ pkcs12: Buffer; password: string } | null>): Promise<LoadedCertificate | null> {
    const cached = this.entries.get(id);
    if (cached) return Promise.resolve(cached);
    let pending = this.pending.get(id);
    if (!pending) {
      pending = unseal()
        .then((sealed) => (sealed ? this.parse(id, sealed.pkcs12, sealed.password) : null))
        .finally(() => this.pending.delete(id));
      this.pending.set(id, pending);
    }
    return pending;
  }

  private parse(id: string, pkcs12: Buffer, password: string): LoadedCertificate {
    const certificate = loadPkcs12(pkcs12, password);
    const credentials = { privateKeyPem: certificate.privateKeyPem, certificatePem: certificate.certificatePem };
    const loaded = { certificate, signer: createSigner(certificate), credentials };
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(id, loaded);
    return loaded;
  }
}

/**
 * The company's certificate, or null when the stored one no longer loads (a CertificateError: its file, password or
 * the loader's limits refuse it — the same on every try). A filed request then waits for an unsettled transmission or
 * is refused as for a company without a certificate, instead of failing every try and staying pending for ever.
 */
export async function usableCertificate(
  load: () => LoadedCertificate | null | Promise<LoadedCertificate | null>,
): Promise<LoadedCertificate | null> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof CertificateError) return null;
    throw error;
  }
}
