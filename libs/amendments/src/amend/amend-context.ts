// Everything the `amend` job needs (the canceller's wiring, worker-dependencies.ts, makes it from one database).
import type { NfseNacionalClient, SefazClient } from '@talao/authorizer-clients';
import type { CertificateCache } from '@talao/authorizer-exchange';
import type { AmendmentsRepository } from '@talao/persistence';

export interface AmendLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface AmendDeps {
  /** loadForAmend: the amend job's one read of the amendment, its invoice, company, certificate and exchanges. */
  amendments: Pick<AmendmentsRepository, 'loadForAmend' | 'begin' | 'answer' | 'finish'>;
  companies: { findById(id: string): Promise<{ id: string; taxId: string; state: string } | null> };
  certificates: {
    findActiveId(companyId: string): Promise<string | null>;
    unseal(certificateId: string): Promise<{ pkcs12: Buffer; password: string } | null>;
  };
  certificateCache: CertificateCache;
  sefaz: SefazClient;
  nfse: NfseNacionalClient;
  logger: AmendLogger;
  now?: () => Date;
}
