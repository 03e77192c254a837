// The computed document of an invoice: what the worker signs and sends, computed once per issuance, there (the create
// side records only its key and total, with fiscal-model's documentIdentity, which the computation itself uses).
// Deterministic: dhEmi is the invoice's creation time and cNF is derived from its id, so every rebuild yields the
// same access key.
import {
  computeDpsDocument,
  computeNfeDocument,
  type DpsDocument,
  type IssuerProfile,
  type NfeDocument,
  type TechnicalResponsible,
  type ValidatedInvoiceRequest,
} from '@talao/fiscal-model';
import type { EnvironmentName } from '../ports.js';

export interface DocumentSubject {
  id: string;
  environment: EnvironmentName;
  series: number;
  number: number;
  createdAt: Date;
  request: ValidatedInvoiceRequest;
}

/** SVC contingency: the SVC chosen by the state's table, when it was entered, and why (xJust, 15–256 characters). */
export interface ContingencyPlan {
  type: 'SVC-AN' | 'SVC-RS';
  at: Date;
  reason: string;
}

export type PlannedDocument = { documentType: 'nfe'; nfe: NfeDocument } | { documentType: 'nfse'; dps: DpsDocument };

export function planDocument(
  subject: DocumentSubject,
  issuer: IssuerProfile,
  technicalResponsible: TechnicalResponsible,
  contingency?: ContingencyPlan,
): PlannedDocument {
  const base = { environment: subject.environment, series: subject.series, number: subject.number, issuedAt: subject.createdAt };
  if (subject.request.documentType === 'nfe') {
    return {
      documentType: 'nfe',
      nfe: computeNfeDocument(subject.request, issuer, {
        ...base,
        invoiceId: subject.id,
        technicalResponsible,
        ...(contingency ? { contingency } : {}),
      }),
    };
  }
  return { documentType: 'nfse', dps: computeDpsDocument(subject.request, issuer, base) };
}
