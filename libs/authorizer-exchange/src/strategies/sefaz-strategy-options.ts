import type { SefazCallContext, SefazClient } from '@talao/authorizer-clients';

/** What an NF-e strategy calls SEFAZ with: the client and the caller (the strategy itself says whether in contingency). */
export interface SefazStrategyOptions {
  sefaz: SefazClient;
  caller: Omit<SefazCallContext, 'contingency'>;
}
