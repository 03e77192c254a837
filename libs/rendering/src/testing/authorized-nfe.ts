// Test support: authorized NF-e (nfeProc) built the way the platform builds them — a request the API accepts,
// validated and computed by fiscal-model, built, signed and schema-checked by fiscal-xml — joined with a protNFe
// as an authorizer answers it. The result is schema-valid (procNFe).
import { computeNfeDocument, type IssuerProfile, validateInvoiceRequest } from '@talao/fiscal-model';
import { SAMPLE_TECHNICAL_RESPONSIBLE, sampleIssuer, sampleNfeItem, sampleNfeRequest } from '@talao/fiscal-model/testing';
import { assertValid, buildNfeProc, buildSignValidateNfe } from '@talao/fiscal-xml';
import { createTestCertificate, signWithXmlCrypto, type TestCertificate } from '@talao/fiscal-xml/testing';
import type { RenderOptions } from '../render-options.js';

let certificate: TestCertificate | undefined;
const signer = {
  signNfeFamily: (xml: string, id: string) =>
    signWithXmlCrypto(xml, id, (certificate ??= createTestCertificate('TALAO DEMONSTRACAO LTDA:11222333000181'))),
};

export interface AuthorizedNfeOptions {
  readonly items?: number;
  /** `simples_nacional` issues with CSOSN and without the IBS/CBS group. */
  readonly regime?: 'normal' | 'simples_nacional';
  readonly environment?: 'homologation' | 'production';
  readonly contingency?: 'SVC-AN' | 'SVC-RS';
  readonly additionalInfo?: string;
  readonly number?: number;
  /** Top-level fields of the request replaced (the recipient's name and address, …). */
  readonly request?: Record<string, unknown>;
}

export interface AuthorizedNfe {
  readonly xml: string;
  readonly accessKey: string;
  readonly protocol: string;
  readonly receivedAt: string;
  readonly issuer: IssuerProfile;
}

const ISSUED_AT = new Date('2026-03-10T15:00:00Z');
export const NFE_PROTOCOL_RECEIVED_AT = '2026-03-10T12:00:01-03:00';

function itemsFor(count: number, regime: 'normal' | 'simples_nacional'): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) =>
    sampleNfeItem({
      description:
        i % 7 === 3
          ? `Produto ${i + 1} com descrição longa que ocupa mais de uma linha na coluna de descrição do DANFE`
          : `Produto ${i + 1}`,
      quantity: String((i % 5) + 1),
      unit_price: `${10 + i}.90`,
      product: { code: `SKU-${String(i + 1).padStart(3, '0')}` },
      ...(regime === 'simples_nacional'
        ? {
            tax: { icms: { csosn: '102', origin: '0' }, pis: { cst: '01', rate: '1.65' }, cofins: { cst: '01', rate: '7.6' } },
            ibs_cbs: null,
          }
        : {}),
    }),
  );
}

/** A signed, schema-valid nfeProc with `items` lines (default 1), authorized with cStat 100. */
export function authorizedNfe(options: AuthorizedNfeOptions = {}): AuthorizedNfe {
  const regime = options.regime ?? 'normal';
  const issuer = sampleIssuer(regime);
  const body = sampleNfeRequest({
    items: itemsFor(options.items ?? 1, regime),
    ...(options.additionalInfo ? { additional_info: options.additionalInfo } : {}),
    payment: [{ method: 'pix' }],
    ...options.request,
  });
  const validated = validateInvoiceRequest(body, issuer, { now: ISSUED_AT });
  if (!validated.ok) throw new Error(`sample request refused: ${JSON.stringify(validated.errors)}`);
  const document = computeNfeDocument(validated.value, issuer, {
    environment: options.environment ?? 'homologation',
    series: 1,
    number: options.number ?? 1234,
    invoiceId: 'inv_01J0000000000000000000000',
    issuedAt: ISSUED_AT,
    contingency: options.contingency
      ? { type: options.contingency, at: new Date('2026-03-10T14:00:00Z'), reason: 'SEFAZ autorizadora indisponivel desde as 11h' }
      : undefined,
    technicalResponsible: SAMPLE_TECHNICAL_RESPONSIBLE,
  });
  const signed = buildSignValidateNfe(document, signer);
  const digest = /<DigestValue>([^<]+)<\/DigestValue>/.exec(signed.xml)?.[1] ?? '';
  const protocol = `1352600000${String(options.number ?? 1234).padStart(5, '0')}`;
  const tpAmb = (options.environment ?? 'homologation') === 'production' ? '1' : '2';
  const protNFe =
    `<protNFe versao="4.00"><infProt><tpAmb>${tpAmb}</tpAmb><verAplic>SP_NFE_PL009_V4</verAplic><chNFe>${signed.accessKey}</chNFe>` +
    `<dhRecbto>${NFE_PROTOCOL_RECEIVED_AT}</dhRecbto><nProt>${protocol}</nProt><digVal>${digest}</digVal><cStat>100</cStat>` +
    '<xMotivo>Autorizado o uso da NF-e</xMotivo></infProt></protNFe>';
  const xml = buildNfeProc({ signedNfe: signed.xml, protocolXml: protNFe });
  assertValid('procNFe', xml);
  return { xml, accessKey: signed.accessKey, protocol, receivedAt: NFE_PROTOCOL_RECEIVED_AT, issuer };
}

/** Numbered words (`t0001 t0002 …`) up to `length` characters: text whose every word can be found once, in order. */
function numberedWords(prefix: string, length: number): string {
  const words: string[] = [];
  for (let i = 1; (words.length + 1) * 6 <= length + 1; i++) words.push(`${prefix}${String(i).padStart(4, '0')}`);
  return words.join(' ');
}

/**
 * A DANFE whose additional data is at its longest: the SVC contingency notice, the homologation notice, a correction
 * letter of 1,000 characters (its maximum) and the taxpayer's infCpl of 5,000 (the schema's), over 5 items; both
 * texts numbered words. More than the first sheet can hold: the rest continues on the next.
 */
export function longestAdditionalData(): { xml: string; infCpl: string; options: RenderOptions } {
  const infCpl = numberedWords('t', 5000);
  const correction = {
    sequence: 20,
    text: numberedWords('c', 1000),
    protocol: '135260000009999',
    registeredAt: '2026-03-11T09:30:00-03:00',
  };
  return { xml: authorizedNfe({ items: 5, contingency: 'SVC-AN', additionalInfo: infCpl }).xml, infCpl, options: { correction } };
}
