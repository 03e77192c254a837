import { z } from 'zod';
import type { A1Certificate, CertificateErrorCode } from '@talao/xml-signing';
import { getCompany } from './create-company.js';
import { notFoundError, validationError } from './errors.js';
import { zodProblems } from './company-input.js';
import type { CertificateRecord, CompanyAdminPorts } from './ports.js';

/** A1 files are a few KB; 64 KiB of PKCS#12 is far beyond any real one and bounds the work of parsing. */
const MAX_PKCS12_BYTES = 64 * 1024;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export const setCertificateInputSchema = z.strictObject({
  pkcs12_base64: z
    .string()
    .transform((v) => v.replace(/\s+/g, ''))
    .pipe(
      z
        .string()
        .min(1, 'is required')
        .max(Math.ceil(MAX_PKCS12_BYTES / 3) * 4, `must encode at most ${MAX_PKCS12_BYTES / 1024} KiB`)
        .regex(BASE64, 'must be base64'),
    ),
  password: z.string().max(256, 'must be at most 256 characters'),
});

export type SetCertificateInput = z.input<typeof setCertificateInputSchema>;

const refusals = (maxKdfIterations: number): Record<CertificateErrorCode, string> => ({
  WRONG_PASSWORD: 'The password does not open this certificate',
  INVALID_PKCS12: 'The file is not a PKCS#12 (.pfx/.p12) A1 certificate',
  NO_PRIVATE_KEY: 'The file has no private key; an A1 certificate must include it',
  NO_CERTIFICATE: 'The file has no certificate matching its private key',
  KEY_DERIVATION_TOO_COSTLY: `The file asks for more key-derivation work than an A1 certificate needs (at most ${maxKdfIterations} iterations; real A1 files use 2,048 or fewer)`,
});

/**
 * The PKCS#12 reader (node-forge, and with it the XML-DSig libraries of @talao/xml-signing) is loaded on the first
 * upload: the gateway serves this admin route beside the issuance API, which must not carry them.
 */
async function openCertificate(pkcs12: Buffer, password: string) {
  const signing = await import('@talao/xml-signing');
  try {
    const certificate: A1Certificate = signing.loadPkcs12(pkcs12, password);
    return { certificate, assessCertificateTrust: signing.assessCertificateTrust };
  } catch (error) {
    // The library's message may quote parser internals; the operator gets a sentence chosen by the stable code.
    if (error instanceof signing.CertificateError) throw validationError(refusals(signing.MAX_KDF_ITERATIONS)[error.code]);
    throw error;
  }
}

/** The stored certificate, and why it is trusted (answered once, at upload). */
export interface UploadedCertificate extends CertificateRecord {
  readonly trust: 'icp_brasil' | 'test_ca';
  readonly trustNote: string;
}

/**
 * Replaces the company's A1 certificate after checking it opens with the password, is valid now, chains to a
 * trusted certificate authority (the configured ICP-Brasil bundle, or the test CA where none is configured), and
 * belongs to the company (same CNPJ). The PKCS#12 and password are stored encrypted by the repository; only
 * metadata returns.
 */
export function setCertificate(ports: CompanyAdminPorts, companyId: string, input: unknown): Promise<UploadedCertificate> {
  const upload = uploads.then(() => uploadNow(ports, companyId, input));
  uploads = upload.catch(() => undefined);
  return upload;
}

/**
 * Uploads run one at a time in a process. Reading a PKCS#12 is synchronous JavaScript (forge) that holds the event
 * loop for its whole (bounded) work, and the store is a database transaction with deadlines: twelve concurrent
 * uploads kept each other's transactions from starting or finishing in time (500s). Uploads are rare operator acts.
 */
let uploads: Promise<unknown> = Promise.resolve();

async function uploadNow(ports: CompanyAdminPorts, companyId: string, input: unknown): Promise<UploadedCertificate> {
  const company = await getCompany(ports, companyId);
  const parsed = setCertificateInputSchema.safeParse(input);
  if (!parsed.success) throw validationError('The certificate upload is invalid', zodProblems(parsed.error));
  const pkcs12 = Buffer.from(parsed.data.pkcs12_base64, 'base64');
  const { certificate, assessCertificateTrust } = await openCertificate(pkcs12, parsed.data.password);

  const now = ports.now?.() ?? new Date();
  if (certificate.notAfter.getTime() <= now.getTime()) {
    throw validationError(`The certificate expired on ${certificate.notAfter.toISOString()}`);
  }
  if (certificate.notBefore.getTime() > now.getTime()) {
    throw validationError(`The certificate is not valid before ${certificate.notBefore.toISOString()}`);
  }
  const trust = assessCertificateTrust(certificate, { anchorsPem: ports.certificateTrustAnchorsPem ?? [] }, now);
  if (!trust.trusted) throw validationError(trust.reason);
  const trustNote =
    trust.anchor === 'icp_brasil'
      ? `Chains to ${trust.anchorName}`
      : `Issued by a test certificate authority (${trust.anchorName}), accepted because this deployment has no ICP-Brasil trust bundle: for homologation against the simulator only, real authorizers refuse it`;
  if (!certificate.taxId) {
    throw validationError('The certificate carries no CNPJ or CPF (ICP-Brasil subject alternative name); it cannot sign for a company');
  }
  if (certificate.taxId !== company.taxId) {
    throw validationError(`The certificate belongs to tax id ${certificate.taxId}, not to this company (${company.taxId})`);
  }

  const metadata = {
    subjectTaxId: certificate.taxId,
    subjectName: certificate.subjectName,
    issuerName: certificate.issuerName,
    serialNumber: certificate.serialNumber,
    notBefore: certificate.notBefore,
    notAfter: certificate.notAfter,
  };
  try {
    const { id } = await ports.certificates.store(company.id, { pkcs12, password: parsed.data.password, metadata });
    return { id, companyId: company.id, ...metadata, createdAt: now, trust: trust.anchor, trustNote };
  } catch (error) {
    // The company was deleted between the check above and the store.
    if (error instanceof Error && error.name === 'CompanyNotFoundError') throw notFoundError(`Company ${companyId} not found`);
    throw error;
  }
}
