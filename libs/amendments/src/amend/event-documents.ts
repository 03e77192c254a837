// The signed event of an amendment, built and validated against its official schema (never re-serialized after).
import {
  buildCorrectionLetterEvent,
  buildCancellationEvent,
  buildSignValidateNfseCancellation,
  signValidateEventLot,
  stateUtcOffset,
} from '@talao/fiscal-xml';
import type { AmendedInvoice, AmendmentRecord } from '@talao/persistence';
import type { LoadedCertificate } from '@talao/authorizer-exchange';

export interface EventSubject {
  amendment: AmendmentRecord;
  invoice: AmendedInvoice & { accessKey: string };
  company: { taxId: string; state: string };
  signer: LoadedCertificate['signer'];
  at: Date;
}

/** The envEvento (one signed 110111 or 110110 event) for NFeRecepcaoEvento4. */
export function signedNfeEventLot({ amendment, invoice, company, signer, at }: EventSubject): string {
  const common = {
    environment: invoice.environment,
    author: { cnpj: company.taxId },
    accessKey: invoice.accessKey,
    eventAt: at,
    utcOffset: stateUtcOffset(company.state),
  };
  // idLote: 1–15 digits chosen by the sender; the event Id (not the lot) is what names the event at SEFAZ.
  const lotId = String(at.getTime()).slice(-15);
  if (amendment.kind === 'cancellation') {
    const event = buildCancellationEvent({ ...common, protocol: invoice.protocol ?? '', justification: amendment.text });
    return signValidateEventLot(lotId, [event], signer, 'envEventoCancNFe');
  }
  const event = buildCorrectionLetterEvent({ ...common, sequence: amendment.sequence, correction: amendment.text });
  return signValidateEventLot(lotId, [event], signer, 'envCCe');
}

/** The signed pedRegEvento e101101 for POST /nfse/{key}/eventos; cMotivo 9 ("outros"): the reason says why. */
export function signedNfseCancellation({ amendment, invoice, company, signer, at }: EventSubject): string {
  return buildSignValidateNfseCancellation(
    {
      environment: invoice.environment,
      applicationVersion: 'talao-1.0',
      author: { cnpj: company.taxId },
      accessKey: invoice.accessKey,
      eventAt: at,
      utcOffset: stateUtcOffset(company.state),
      reason: '9',
      justification: amendment.text,
    },
    signer,
  );
}
