// Events a third party registers on an NF-e it issued to a tax id (so received-invoice sync sees resEvento linked to
// a document): today the issuer's cancellation, fed to the recipient as the real AN does.
import { resEvento } from '../responses/event-responses.js';
import { type SimServices } from './sefaz-context.js';

const CANCELLATION = '110111';
const CONFIRMATION = '210200';

export function cancelThirdPartyNfe(services: SimServices, accessKey: string): { nProt: string } {
  const { state, feed, clock } = services;
  const document = state.findByKey(accessKey);
  if (!document) throw new Error('unknown access key');
  if (!document.recipientTaxId) throw new Error('the NF-e has no recipient');
  if (document.cancelled) throw new Error('already cancelled');
  // As at the authorizer (221): an NF-e whose recipient confirmed the operation can no longer be cancelled.
  if (document.events.some((e) => e.tpEvento === CONFIRMATION))
    throw new Error('221 Rejeição: Confirmado o recebimento da NF-e pelo destinatário');
  const now = clock.now();
  document.cancelled = true;
  const nProt = state.nextProtocol(document.tpAmb, document.key.slice(0, 2), now);
  feed.add(
    document.recipientTaxId,
    'resEvento_v1.01.xsd',
    resEvento({
      cOrgao: document.key.slice(0, 2),
      authorTaxId: document.issuerTaxId,
      chNFe: document.key,
      dhEvento: clock.stamp(now),
      tpEvento: CANCELLATION,
      nSeqEvento: 1,
      xEvento: 'Cancelamento',
      dhRecbto: clock.stamp(now),
      nProt,
    }),
  );
  return { nProt };
}
