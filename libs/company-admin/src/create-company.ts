import { parseCreateCompanyInput, parseUpdateCompanyInput } from './company-input.js';
import { conflictError, notFoundError } from './errors.js';
import type { CompanyAdminPorts, CompanyRecord } from './ports.js';

/** The repository's duplicate-tax-id error, recognised by name so this lib does not depend on persistence. */
function isTaxIdTaken(error: unknown): boolean {
  return error instanceof Error && error.name === 'CompanyTaxIdTakenError';
}

export async function createCompany(ports: CompanyAdminPorts, input: unknown): Promise<CompanyRecord> {
  const company = parseCreateCompanyInput(input);
  const duplicate = () => conflictError(`A company with tax id ${company.taxId} already exists`);
  if (await ports.companies.findByTaxId(company.taxId)) throw duplicate();
  const { plan, ...fields } = company;
  try {
    return await ports.companies.create({
      ...fields,
      ...(plan && {
        ...(plan.name !== undefined && { planName: plan.name }),
        productionQuota: plan.productionQuota,
        overagePrice: plan.overagePrice,
      }),
    });
  } catch (error) {
    // Two operators creating the same company at once: the unique index decides, the loser gets the same 409.
    if (isTaxIdTaken(error)) throw duplicate();
    throw error;
  }
}

/** Changes the profile fields named in `input`; the caches of companies must forget it (the delivery's part). */
export async function updateCompany(ports: CompanyAdminPorts, id: string, input: unknown): Promise<CompanyRecord> {
  const changes = parseUpdateCompanyInput(input);
  const company = UUID.test(id) ? await ports.companies.update(id, changes) : null;
  if (!company) throw notFoundError(`Company ${id} not found`);
  return company;
}

export async function getCompany(ports: CompanyAdminPorts, id: string): Promise<CompanyRecord> {
  const company = UUID.test(id) ? await ports.companies.findById(id) : null;
  if (!company) throw notFoundError(`Company ${id} not found`);
  return company;
}

/** Ids are UUIDs; anything else cannot exist, and must not reach PostgreSQL (which would fail on the cast). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
