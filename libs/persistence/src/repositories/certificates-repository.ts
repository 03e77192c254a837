// A1 certificates, sealed with the CertificateVault: one active certificate per company, older ones kept as replaced.
import type { PrismaClient } from '../generated/prisma/client.js';
import type { CertificateVault } from '../certificate-vault.js';
import { CompanyNotFoundError } from '../errors.js';
import { isUuid } from '../uuid.js';

export interface CertificateMetadata {
  subjectTaxId: string;
  subjectName: string;
  issuerName: string;
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
}

export interface NewCertificate {
  pkcs12: Buffer;
  password: string;
  metadata: CertificateMetadata;
}

export interface ActiveCertificate {
  id: string;
  pkcs12: Buffer;
  password: string;
  metadata: CertificateMetadata;
}

export class CertificatesRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly vault: CertificateVault,
  ) {}

  /** Stores the certificate as the company's active one; the previous active one is marked replaced atomically. */
  async store(companyId: string, certificate: NewCertificate): Promise<{ id: string }> {
    const pkcs12Encrypted = this.vault.encrypt(certificate.pkcs12);
    const passwordEncrypted = this.vault.encrypt(Buffer.from(certificate.password, 'utf8'));
    return this.prisma.$transaction(async (tx) => {
      // Lock the company so two concurrent uploads cannot both leave an active certificate.
      const locked = isUuid(companyId)
        ? await tx.$queryRaw<{ id: string }[]>`SELECT id FROM companies WHERE id = ${companyId}::uuid FOR UPDATE`
        : [];
      if (locked.length === 0) throw new CompanyNotFoundError(companyId);
      const now = new Date();
      await tx.certificate.updateMany({ where: { companyId, replacedAt: null }, data: { replacedAt: now } });
      const { metadata } = certificate;
      return tx.certificate.create({
        data: {
          companyId,
          pkcs12Encrypted: new Uint8Array(pkcs12Encrypted),
          passwordEncrypted: new Uint8Array(passwordEncrypted),
          keyVersion: this.vault.keyVersion,
          subjectTaxId: metadata.subjectTaxId,
          subjectName: metadata.subjectName,
          issuerName: metadata.issuerName,
          serialNumber: metadata.serialNumber,
          notBefore: metadata.notBefore,
          notAfter: metadata.notAfter,
        },
        select: { id: true },
      });
    });
  }

  /** The PKCS#12 and password of one certificate (active or replaced), decrypted; null for an unknown id. */
  async unseal(certificateId: string): Promise<{ pkcs12: Buffer; password: string } | null> {
    if (!isUuid(certificateId)) return null;
    const row = await this.prisma.certificate.findUnique({
      where: { id: certificateId },
      select: { pkcs12Encrypted: true, passwordEncrypted: true },
    });
    if (!row) return null;
    return {
      pkcs12: this.vault.decrypt(Buffer.from(row.pkcs12Encrypted)),
      password: this.vault.decrypt(Buffer.from(row.passwordEncrypted)).toString('utf8'),
    };
  }

  /** The company's active certificate, decrypted; null when none was uploaded. */
  async findActive(companyId: string): Promise<ActiveCertificate | null> {
    if (!isUuid(companyId)) return null;
    const row = await this.prisma.certificate.findFirst({
      where: { companyId, replacedAt: null },
      orderBy: { createdAt: 'desc' },
    });
    if (!row) return null;
    return {
      id: row.id,
      pkcs12: this.vault.decrypt(Buffer.from(row.pkcs12Encrypted)),
      password: this.vault.decrypt(Buffer.from(row.passwordEncrypted)).toString('utf8'),
      metadata: {
        subjectTaxId: row.subjectTaxId,
        subjectName: row.subjectName,
        issuerName: row.issuerName,
        serialNumber: row.serialNumber,
        notBefore: row.notBefore,
        notAfter: row.notAfter,
      },
    };
  }
}
