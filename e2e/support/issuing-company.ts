// An issuer company ready for issuance in end-to-end tests: a complete São Paulo profile (normal tax regime by default)
// and, unless told otherwise, an A1 certificate issued by the simulator's CA (so the simulator accepts its mTLS and
// signatures) stored encrypted through the real repository.
import { randomBytes } from 'node:crypto';
import type { CertificatesRepository, PrismaClient } from '@talao/persistence';
import { loadPkcs12 } from '@talao/xml-signing';

export interface IssuingCompanyOptions {
  certificate?: boolean;
  productionQuota: number | null;
  stateRegistration?: string | null;
  /** Default normal (CRT 3: IBS/CBS required on every item from 2026). */
  taxRegime?: 'normal' | 'simples_nacional' | 'simples_nacional_excess' | 'mei';
}

export interface IssuingCompanyDeps {
  prisma: PrismaClient;
  certificates: CertificatesRepository;
  sim: { control(method: string, path: string, body?: unknown): Promise<{ json: Record<string, unknown> }> };
}

/** A numeric CNPJ no other test of the run uses: 12 random digits and 00 (the platform checks the shape only). */
export function uniqueCnpj(): string {
  return `${BigInt(`0x${randomBytes(6).toString('hex')}`) % 10n ** 12n}`.padStart(12, '9') + '00';
}

export async function createIssuingCompany(deps: IssuingCompanyDeps, options: IssuingCompanyOptions): Promise<string> {
  const taxId = uniqueCnpj();
  const company = await deps.prisma.company.create({
    data: {
      taxId,
      legalName: 'EMPRESA EMISSORA LTDA',
      taxRegime: options.taxRegime ?? 'normal',
      street: 'Avenida Paulista',
      number: '1000',
      district: 'Bela Vista',
      cityCode: '3550308',
      cityName: 'Sao Paulo',
      state: 'SP',
      postalCode: '01310100',
      municipalRegistration: '12345678',
      stateRegistration: options.stateRegistration === undefined ? '110042490114' : options.stateRegistration,
      defaultNfseServiceCode: '1.07',
      approximateTaxes: { federal: '13.45', state: '0.00', municipal: '2.00' },
      productionQuota: options.productionQuota,
    },
  });
  if (options.certificate !== false) {
    const issued = await deps.sim.control('POST', '/_control/certificates', {
      taxId,
      legalName: 'EMPRESA EMISSORA LTDA',
      password: 'secret',
    });
    const pkcs12 = Buffer.from(String(issued.json['pkcs12Base64']), 'base64');
    const loaded = loadPkcs12(pkcs12, 'secret');
    await deps.certificates.store(company.id, {
      pkcs12,
      password: 'secret',
      metadata: {
        subjectTaxId: taxId,
        subjectName: loaded.subjectName,
        issuerName: loaded.issuerName,
        serialNumber: loaded.serialNumber,
        notBefore: loaded.notBefore,
        notAfter: loaded.notAfter,
      },
    });
  }
  return company.id;
}
