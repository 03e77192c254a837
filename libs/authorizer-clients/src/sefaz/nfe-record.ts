// Reconciliation reads of NF-e answers: what the authorizer holds under an access key, after an outcome that left it
// unknown. The codes come from sefaz-classification.ts, the one table of them.
import { type RetConsSitNFe } from '@talao/fiscal-xml';
import { type AuthorizerOutcome, describeOutcome } from '../outcome.js';
import { NFE_ALREADY_HELD, NFE_NOT_ON_RECORD, nfeRecordState, type NfeRecordState } from './sefaz-classification.js';

/**
 * - `found`: the authorizer's record decides (its protocol's code and message, and protNFe byte for byte);
 * - `absent`: nothing registered under the key, so the same document may be sent again;
 * - `inconclusive`: the consult could not tell (unavailable, unknown, a code that is no document state).
 */
export type NfeRecord =
  | { kind: 'found'; state: NfeRecordState; code: string; message: string; protocol: string | null; protocolXml?: string }
  | { kind: 'absent' }
  | { kind: 'inconclusive'; detail: string };

/** Reads an NFeConsultaProtocolo4 outcome: the protocol's code when protNFe came back, else the consult's own. */
export function readNfeRecord(outcome: AuthorizerOutcome<RetConsSitNFe>): NfeRecord {
  if (outcome.status === 'accepted' || outcome.status === 'authorized') {
    const prot = outcome.result.protocol;
    const code = prot?.status.code ?? outcome.code;
    const message = prot?.status.message ?? outcome.message;
    const state = nfeRecordState(code);
    if (!state) return { kind: 'inconclusive', detail: `consult answered ${code} ${message}` };
    return {
      kind: 'found',
      state,
      code,
      message,
      protocol: prot?.protocolNumber ?? outcome.protocol ?? null,
      ...(prot?.rawXml ? { protocolXml: prot.rawXml } : {}),
    };
  }
  if (outcome.status === 'rejected' && outcome.code === NFE_NOT_ON_RECORD) return { kind: 'absent' };
  return { kind: 'inconclusive', detail: describeOutcome(outcome) };
}

/** An authorization refused because the key is already held (204): a consult, not the refusal, decides. */
export function alreadyHeld(outcome: AuthorizerOutcome<unknown>): boolean {
  return outcome.status === 'rejected' && outcome.code === NFE_ALREADY_HELD;
}

/** tpEmis is the 35th character of the key: a document issued through SVC (6, 7) is consulted at the SVC. */
export function issuedInContingency(accessKey: string): boolean {
  const tpEmis = accessKey.charAt(34);
  return tpEmis === '6' || tpEmis === '7';
}
