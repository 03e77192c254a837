// Test support: fast-check arbitraries of computed NF-e documents (fiscal-model's NfeDocument) covering every ICMS
// group, IPI taxed/not taxed, PIS/COFINS by rate/quantity/not taxed/other, IBS/CBS, CPF and CNPJ (alphanumeric too),
// contingency, 1–200 items, and text with the characters XML must escape. Values are shaped like the layout's types;
// their arithmetic is fiscal-model's business, not the serializer's.
import fc from 'fast-check';
import { buildAccessKey, type NfeDocument, type NfeItem } from '@talao/fiscal-model';
import { cnpj, digits, money, price10, qty4, rate, text } from './layout-arbitraries.js';
import { icmsArbitrary } from './nfe-icms-arbitrary.js';

const UFS = [
  ['35', 'SP'],
  ['43', 'RS'],
  ['31', 'MG'],
  ['13', 'AM'],
  ['12', 'AC'],
  ['53', 'DF'],
] as const;

const socialContribution = fc.oneof(
  fc.record({ group: fc.constant('Aliq' as const), CST: fc.constantFrom('01', '02' as const), vBC: money, p: rate, v: money }),
  fc.record({ group: fc.constant('Qtde' as const), CST: fc.constant('03' as const), qBCProd: qty4, vAliqProd: qty4, v: money }),
  fc.record({ group: fc.constant('NT' as const), CST: fc.constantFrom('04', '05', '06', '07', '08', '09' as const) }),
  fc.record({ group: fc.constant('Outr' as const), CST: fc.constantFrom('49', '50', '99'), vBC: money, p: rate, v: money }),
  fc.record({ group: fc.constant('Outr' as const), CST: fc.constantFrom('49', '99'), qBCProd: qty4, vAliqProd: qty4, v: money }),
);

const ipi = fc.option(
  fc.oneof(
    fc.record({
      group: fc.constant('IPITrib' as const),
      cEnq: fc.constant('999'),
      CST: fc.constantFrom('00', '49', '50', '99' as const),
      vBC: money,
      pIPI: rate,
      vIPI: money,
    }),
    fc.record({
      group: fc.constant('IPITrib' as const),
      cEnq: fc.constant('999'),
      CST: fc.constantFrom('00', '50' as const),
      qUnid: qty4,
      vUnid: qty4,
      vIPI: money,
    }),
    fc.record({
      group: fc.constant('IPINT' as const),
      cEnq: fc.constant('999'),
      CST: fc.constantFrom('01', '02', '03', '04', '05', '51', '52', '53', '54', '55' as const),
    }),
  ),
  { nil: undefined },
);

const ibsCbs = fc.option(
  fc.record({
    CST: fc.constantFrom('000', '200', '410'),
    cClassTrib: fc.constantFrom('000001', '200032', '410999'),
    gIBSCBS: fc.record({
      vBC: money,
      gIBSUF: fc.record({ pIBSUF: rate, vIBSUF: money }),
      gIBSMun: fc.record({ pIBSMun: rate, vIBSMun: money }),
      vIBS: money,
      gCBS: fc.record({ pCBS: rate, vCBS: money }),
    }),
  }),
  { nil: undefined },
);

const item = fc.record({
  prod: fc
    .tuple(
      fc.record({
        cProd: text(1, 60),
        cEAN: fc.oneof(fc.constant('SEM GTIN'), digits(13)),
        xProd: text(1, 120),
        NCM: digits(8),
        CEST: fc.option(digits(7), { nil: undefined }),
        CFOP: fc.constantFrom('5102', '6102', '7102', '5405'),
        uCom: fc.constantFrom('UN', 'KG', 'CX'),
        qCom: qty4,
        vUnCom: price10,
        vProd: money,
        cEANTrib: fc.constant('SEM GTIN'),
        uTrib: fc.constantFrom('UN', 'KG'),
        qTrib: qty4,
        vUnTrib: price10,
        vFrete: fc.option(money, { nil: undefined }),
        vSeg: fc.option(money, { nil: undefined }),
        vDesc: fc.option(money, { nil: undefined }),
        vOutro: fc.option(money, { nil: undefined }),
        indTot: fc.constant('1' as const),
      }),
      fc.option(fc.constantFrom('11222333000181', '12ABC34501DE35'), { nil: undefined }),
    )
    // CNPJFab (with indEscala N) only beside CEST, as the layout's sequence allows.
    .map(([prod, manufacturer]) =>
      prod.CEST !== undefined && manufacturer ? { ...prod, indEscala: 'N' as const, CNPJFab: manufacturer } : prod,
    ),
  imposto: fc.record({ ICMS: icmsArbitrary, IPI: ipi, PIS: socialContribution, COFINS: socialContribution, IBSCBS: ibsCbs }),
  itemTotal: money,
});

const address = fc.record({
  xLgr: text(2, 60),
  nro: text(1, 60),
  xCpl: fc.option(text(1, 60), { nil: undefined }),
  xBairro: text(2, 60),
  cMun: digits(7),
  xMun: text(2, 60),
  UF: fc.constantFrom('SP', 'RS', 'MG', 'AM'),
  CEP: digits(8),
  cPais: fc.constant('1058'),
  xPais: fc.constant('BRASIL'),
  fone: fc.option(digits(10), { nil: undefined }),
});

const taxIdOf = fc.oneof(
  cnpj.map((c) => ({ CNPJ: c })),
  digits(11).map((c) => ({ CPF: c })),
);
const totalsMoney = fc.record({
  vBC: money,
  vICMS: money,
  vICMSDeson: money,
  vFCP: money,
  vBCST: money,
  vST: money,
  vFCPST: money,
  vFCPSTRet: money,
  vProd: money,
  vFrete: money,
  vSeg: money,
  vDesc: money,
  vII: money,
  vIPI: money,
  vIPIDevol: money,
  vPIS: money,
  vCOFINS: money,
  vOutro: money,
  vNF: money,
});
const ibsCbsTot = fc.record({
  vBCIBSCBS: money,
  gIBS: fc.record({
    gIBSUF: fc.record({ vDif: money, vDevTrib: money, vIBSUF: money }),
    gIBSMun: fc.record({ vDif: money, vDevTrib: money, vIBSMun: money }),
    vIBS: money,
    vCredPres: money,
    vCredPresCondSus: money,
  }),
  gCBS: fc.record({ vDif: money, vDevTrib: money, vCBS: money, vCredPres: money, vCredPresCondSus: money }),
});

export function nfeDocumentArbitrary(
  items: { minLength: number; maxLength: number } = { minLength: 1, maxLength: 200 },
): fc.Arbitrary<NfeDocument> {
  return fc
    .record({
      uf: fc.constantFrom(...UFS),
      issuer: taxIdOf,
      dest: fc.oneof(taxIdOf, fc.constant({ idEstrangeiro: 'AB12345' })),
      serie: fc.integer({ min: 0, max: 999 }),
      nNF: fc.integer({ min: 1, max: 999_999_999 }),
      tpEmis: fc.constantFrom(1, 6, 7),
      cNF: digits(8),
      tpAmb: fc.constantFrom('1', '2' as const),
      natOp: text(1, 60),
      destAddress: address,
      emitAddress: address,
      xNome: text(2, 60),
      // Uniform item count (fc.array alone keeps arrays short by default, and 200-item documents matter).
      det: fc.integer({ min: items.minLength, max: items.maxLength }).chain((n) => fc.array(item, { minLength: n, maxLength: n })),
      totals: totalsMoney,
      ibsCbsTot: fc.option(ibsCbsTot, { nil: undefined }),
      infCpl: fc.option(text(1, 500), { nil: undefined }),
      pag: fc.array(fc.record({ tPag: fc.constantFrom('01', '03', '15', '90', '99'), vPag: money }), { minLength: 1, maxLength: 3 }),
      emitIe: digits(12),
      crt: fc.constantFrom('1', '2', '3', '4' as const),
    })
    .map((r): NfeDocument => {
      const issuerId = 'CNPJ' in r.issuer ? (r.issuer.CNPJ as string) : (r.issuer.CPF as string);
      const accessKey = buildAccessKey({
        cUF: r.uf[0],
        yearMonth: '2607',
        cnpjOrCpf: issuerId,
        model: '55',
        series: r.serie,
        number: r.nNF,
        emissionType: r.tpEmis,
        numericCode: r.cNF,
      });
      const tpEmis = String(r.tpEmis) as '1' | '6' | '7';
      return {
        accessKey,
        ide: {
          cUF: r.uf[0],
          cNF: r.cNF,
          natOp: r.natOp,
          mod: '55',
          serie: String(r.serie),
          nNF: String(r.nNF),
          dhEmi: '2026-07-31T10:15:00-03:00',
          tpNF: '1',
          idDest: '1',
          cMunFG: '3550308',
          tpImp: '1',
          tpEmis,
          cDV: accessKey.slice(43),
          tpAmb: r.tpAmb,
          finNFe: '1',
          indFinal: '1',
          indPres: '2',
          indIntermed: '0',
          procEmi: '0',
          verProc: 'Talao 0.1.0',
          contingency:
            tpEmis === '1' ? undefined : { dhCont: '2026-07-31T09:00:00-03:00', xJust: 'Autorizador indisponivel & sem resposta' },
        },
        emit: { ...r.issuer, xNome: r.xNome, enderEmit: { ...r.emitAddress, UF: r.uf[1] }, IE: r.emitIe, CRT: r.crt },
        dest: {
          ...r.dest,
          xNome: r.tpAmb === '2' ? 'NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL' : r.xNome,
          enderDest: r.destAddress,
          indIEDest: '9',
          email: 'compras@example.com.br',
        },
        det: r.det.map((d, i): NfeItem => ({ ...d, nItem: i + 1 }) as NfeItem),
        total: { ICMSTot: r.totals, IBSCBSTot: r.ibsCbsTot },
        transp: { modFrete: '9' },
        pag: {
          detPag: r.pag.map((p) => ({
            ...p,
            xPag: p.tPag === '99' ? 'Permuta de mercadorias' : undefined,
            card: p.tPag === '03' ? { tpIntegra: '2' as const } : undefined,
          })),
        },
        infAdic: r.infCpl === undefined ? undefined : { infCpl: r.infCpl },
        infRespTec: { CNPJ: '11222333000181', xContato: 'Equipe Talao', email: 'fiscal@talao.example', fone: '11999990000' },
      };
    });
}

/** A fixed document of `itemCount` items (same seed, same bytes): for benchmarks and examples. */
export function sampleNfeDocument(itemCount: number, seed = 42): NfeDocument {
  const [doc] = fc.sample(nfeDocumentArbitrary({ minLength: itemCount, maxLength: itemCount }), { seed, numRuns: 1 });
  return doc as NfeDocument;
}
