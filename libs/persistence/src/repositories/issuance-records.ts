// Plain records the issuance repositories return: numbers instead of BigInt, decimals as strings, so use cases and
// job payloads never handle Prisma's runtime types.
import type { Prisma } from '../generated/prisma/client.js';

export type EnvironmentName = 'homologation' | 'production';
export type DocumentTypeName = 'nfe' | 'nfse';
export type InvoiceStatusName = 'processing' | 'issued' | 'rejected' | 'failed' | 'cancelled';

/** A client or an open transaction: repository methods that must join a caller's transaction take this. */
export type DbClient = Prisma.TransactionClient;

export interface InvoiceRecord {
  id: string;
  companyId: string;
  environment: EnvironmentName;
  documentType: DocumentTypeName;
  status: InvoiceStatusName;
  series: number;
  number: number;
  accessKey: string | null;
  dpsId: string | null;
  protocol: string | null;
  request: unknown;
  totalAmount: string;
  contingency: boolean;
  statusCode: string | null;
  statusMessage: string | null;
  authorizedXml: string | null;
  reissueOfId: string | null;
  issuedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

type InvoiceRow = Prisma.InvoiceGetPayload<object>;

export function toInvoiceRecord(row: InvoiceRow): InvoiceRecord {
  return { ...row, number: Number(row.number), totalAmount: row.totalAmount.toString() };
}
