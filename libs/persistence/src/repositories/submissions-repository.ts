import type { PrismaClient } from '../generated/prisma/client.js';

export interface SubmissionRecord {
  id: string;
  invoiceId: string;
  companyId: string;
  attempt: number;
  operation: string;
  endpoint: string;
  requestBody: string;
  responseBody: string | null;
  httpStatus: number | null;
  outcome: string | null;
  statusCode: string | null;
  statusMessage: string | null;
  sentAt: Date;
  answeredAt: Date | null;
}

export interface SubmissionAnswer {
  responseBody?: string | null;
  httpStatus?: number | null;
  /** authorized | rejected | unavailable | unknown (consults: found | not-found). */
  outcome: string;
  statusCode?: string | null;
  statusMessage?: string | null;
}

/**
 * Every exchange with an authorizer for an invoice, byte for byte (invariant 3): `begin` stores the request before
 * it is sent, `answer` stores the response after. Attempt numbers are per invoice, 1, 2, …
 */
export class SubmissionsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async begin(input: { invoiceId: string; companyId: string; operation: string; endpoint: string; requestBody: string }): Promise<SubmissionRecord> {
    // The unique (invoice, attempt) index turns a race between two workers into an error instead of a lost row.
    const last = await this.prisma.submission.findFirst({ where: { invoiceId: input.invoiceId }, orderBy: { attempt: 'desc' }, select: { attempt: true } });
    return this.prisma.submission.create({ data: { ...input, attempt: (last?.attempt ?? 0) + 1, sentAt: new Date() } });
  }

  async answer(id: string, answer: SubmissionAnswer): Promise<void> {
    await this.prisma.submission.update({ where: { id }, data: { ...answer, answeredAt: new Date() } });
  }

  listByInvoice(invoiceId: string): Promise<SubmissionRecord[]> {
    return this.prisma.submission.findMany({ where: { invoiceId }, orderBy: { attempt: 'asc' } });
  }

  count(invoiceId: string): Promise<number> {
    return this.prisma.submission.count({ where: { invoiceId } });
  }
}
