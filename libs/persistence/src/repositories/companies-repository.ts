// Companies (the platform's tenants): registration data, address, defaults and plan.
import { Prisma, type Company, type PrismaClient } from '../generated/prisma/client.js';
import { CompanyTaxIdTakenError } from '../errors.js';
import { isUuid } from '../uuid.js';

type Relations = 'certificates' | 'apiKeys' | 'sequences' | 'invoices' | 'idempotency' | 'usage' | 'outbox';

/** Everything a company is created with; ids and timestamps are the database's. */
export type NewCompany = Omit<Prisma.CompanyUncheckedCreateInput, 'id' | 'createdAt' | 'updatedAt' | Relations>;
export type CompanyPatch = Partial<NewCompany>;

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}

function isNotFound(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2025';
}

export class CompaniesRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Throws CompanyTaxIdTakenError when the tax id is already registered. */
  async create(input: NewCompany): Promise<Company> {
    try {
      return await this.prisma.company.create({ data: input });
    } catch (error) {
      if (isUniqueViolation(error)) throw new CompanyTaxIdTakenError(input.taxId);
      throw error;
    }
  }

  async findById(id: string): Promise<Company | null> {
    if (!isUuid(id)) return null;
    return this.prisma.company.findUnique({ where: { id } });
  }

  async findByTaxId(taxId: string): Promise<Company | null> {
    return this.prisma.company.findUnique({ where: { taxId } });
  }

  /** Null when the company does not exist. */
  async update(id: string, patch: CompanyPatch): Promise<Company | null> {
    if (!isUuid(id)) return null;
    try {
      return await this.prisma.company.update({ where: { id }, data: patch });
    } catch (error) {
      if (isNotFound(error)) return null;
      if (isUniqueViolation(error) && patch.taxId) throw new CompanyTaxIdTakenError(patch.taxId);
      throw error;
    }
  }
}
