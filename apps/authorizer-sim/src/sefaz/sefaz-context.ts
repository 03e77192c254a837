import { type X509Certificate } from 'node:crypto';
import { listStateAuthorizers } from '@talao/authorizer-clients';
import { type SimClock } from '../clock.js';
import { type FaultBook } from '../control/fault-settings.js';
import { type DistributionFeed } from '../state/distribution-feed.js';
import { type NationalSigningKey } from '../nfse/national-signer.js';
import { type NfseState } from '../nfse/nfse-state.js';
import { type SefazState } from '../state/sefaz-state.js';

/** What a SEFAZ handler knows about the call: which endpoint was hit and who is calling. */
export interface SefazCall {
  authorizer: string;
  tpAmb: '1' | '2';
  /** Tax id in the client certificate of the TLS connection (the transmitter). */
  transmitterTaxId: string | null;
}

export interface SimServices {
  state: SefazState;
  feed: DistributionFeed;
  clock: SimClock;
  faults: FaultBook;
  trustedCa: X509Certificate;
  nfse: NfseState;
  /** The simulated national environment's signing key (NFS-e and its events). */
  nationalKey: NationalSigningKey;
}

/** IBGE codes of the states an authorizer serves (its own, or as their SVC). */
export function statesServedBy(authorizer: string): string[] {
  return listStateAuthorizers()
    .filter((s) => s.authorizer === authorizer || s.contingencyAuthorizer === authorizer)
    .map((s) => s.code);
}

export function isContingencyAuthorizer(authorizer: string): boolean {
  return authorizer === 'SVC-AN' || authorizer === 'SVC-RS';
}

/** tpEmis an SVC accepts: 6 at SVC-AN, 7 at SVC-RS. */
export function contingencyEmissionType(authorizer: string): string | undefined {
  return authorizer === 'SVC-AN' ? '6' : authorizer === 'SVC-RS' ? '7' : undefined;
}

/** cUF for answers given before the message could be read: the one the message names, or the authorizer's first. */
export function answerStateCode(authorizer: string, message: string): string {
  const named = /<cUF>(\d{2})<\/cUF>/.exec(message)?.[1];
  return named ?? statesServedBy(authorizer)[0] ?? '91';
}
