// A signed, schema-valid NF-e for the simulator: the fiscal-xml sample document, bent to a consistent sale inside
// SP (CFOP 5102, idDest 1), with totals equal to the sum of its items, issued by the test company's CNPJ.
import { buildAccessKey, type NfeDocument } from '@talao/fiscal-model';
import { buildNfe, formatFiscalDateTime } from '@talao/fiscal-xml';
import { type A1Certificate, createSigner } from '@talao/xml-signing';
import { sampleNfeDocument } from '@talao/fiscal-xml/testing';

export interface FixtureOptions {
  cnpj: string;
  number: number;
  /** cNF: another value gives another key for the same number (rejection 539). */
  numericCode?: string;
  tpAmb?: '1' | '2';
  /** 1 normal, 6 SVC-AN, 7 SVC-RS. */
  tpEmis?: 1 | 6 | 7;
  recipientName?: string;
  /** CNPJ of the recipient (for manifestation and DistDFe). */
  recipientCnpj?: string;
  /** dhEmi; now by default. */
  issuedAt?: Date;
  /** Breaks the total of products (rejection 564). */
  wrongTotal?: boolean;
}

const toCents = (v: string | undefined) => (v ? BigInt(v.replace('.', '')) : 0n);
const toMoney = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;

export function fixtureDocument(options: FixtureOptions): NfeDocument {
  const base = sampleNfeDocument(2, 7);
  const tpAmb = options.tpAmb ?? '2';
  const tpEmis = options.tpEmis ?? 1;
  const numericCode = options.numericCode ?? '12345678';
  // Issued now (the authorizer refuses an NF-e from the future, 703, or older than 30 days, 228).
  const dhEmi = formatFiscalDateTime(options.issuedAt ?? new Date(), '-03:00');
  const accessKey = buildAccessKey({
    cUF: '35',
    yearMonth: `${dhEmi.slice(2, 4)}${dhEmi.slice(5, 7)}`,
    cnpjOrCpf: options.cnpj,
    model: '55',
    series: 1,
    number: options.number,
    emissionType: tpEmis,
    numericCode,
  });
  const det = base.det.map((item) => ({ ...item, prod: { ...item.prod, CFOP: '5102' } }));
  const sum = (field: 'vProd' | 'vFrete' | 'vSeg' | 'vDesc' | 'vOutro') => det.reduce((acc, d) => acc + toCents(d.prod[field]), 0n);
  const vProd = sum('vProd') + (options.wrongTotal ? 1n : 0n);
  const vNF = vProd - sum('vDesc') + sum('vFrete') + sum('vSeg') + sum('vOutro');
  const zero = '0.00';
  return {
    ...base,
    accessKey,
    ide: {
      ...base.ide,
      cUF: '35',
      serie: '1',
      dhEmi,
      nNF: String(options.number),
      cNF: numericCode,
      cDV: accessKey.slice(43),
      tpAmb,
      tpEmis: String(tpEmis) as '1' | '6' | '7',
      idDest: '1',
      cMunFG: '3550308',
      contingency: tpEmis === 1 ? undefined : { dhCont: dhEmi, xJust: 'Autorizador indisponivel, emissao em contingencia' },
    },
    emit: { ...base.emit, CNPJ: options.cnpj, CPF: undefined, enderEmit: { ...base.emit.enderEmit, UF: 'SP' } } as NfeDocument['emit'],
    dest: {
      ...base.dest,
      ...(options.recipientCnpj ? { CNPJ: options.recipientCnpj, CPF: undefined, idEstrangeiro: undefined } : {}),
      xNome: options.recipientName ?? (tpAmb === '2' ? 'NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL' : 'CLIENTE'),
      enderDest: { ...base.dest.enderDest, UF: 'SP' },
    },
    det,
    total: {
      ...base.total,
      ICMSTot: {
        ...base.total.ICMSTot,
        vProd: toMoney(vProd),
        vFrete: toMoney(sum('vFrete')),
        vSeg: toMoney(sum('vSeg')),
        vDesc: toMoney(sum('vDesc')),
        vOutro: toMoney(sum('vOutro')),
        vICMSDeson: zero,
        vST: zero,
        vFCPST: zero,
        vII: zero,
        vIPI: zero,
        vIPIDevol: zero,
        vNF: toMoney(vNF),
      },
    },
  };
}

export function signedFixture(certificate: A1Certificate, options: FixtureOptions): { accessKey: string; signedNfe: string } {
  const unsigned = buildNfe(fixtureDocument(options));
  return { accessKey: unsigned.accessKey, signedNfe: createSigner(certificate).signNfeFamily(unsigned.xml, unsigned.id) };
}
