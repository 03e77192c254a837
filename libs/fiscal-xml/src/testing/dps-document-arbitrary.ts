// Test support: fast-check arbitraries of computed DPS documents (fiscal-model's DpsDocument): CPF/CNPJ providers,
// optional taker (CNPJ, CPF or NIF; national or foreign address), discounts, Simples Nacional or not, with or without IBS/CBS.
import fc from 'fast-check';
import type { DpsDocument } from '@talao/fiscal-model';
import { dpsId } from '../nfse/build-dps.js';
import { cents, digits, text } from './layout-arbitraries.js';

const money = cents(99_999_999_99);
const taxId = fc.oneof(
  digits(14).map((CNPJ) => ({ CNPJ })),
  digits(11).map((CPF) => ({ CPF })),
);
/** A taker may also be abroad, named by its NIF. */
const takerId = fc.oneof(
  taxId,
  text(5, 20).map((NIF) => ({ NIF })),
);

const address = fc
  .record({
    location: fc.oneof(
      fc.record({ endNac: fc.record({ cMun: digits(7), CEP: digits(8) }) }),
      fc.record({
        endExt: fc.record({
          cPais: fc.constantFrom('US', 'PT', 'AR'),
          cEndPost: text(1, 11),
          xCidade: text(1, 60),
          xEstProvReg: text(1, 60),
        }),
      }),
    ),
    xLgr: text(1, 120),
    nro: text(1, 60),
    xCpl: fc.option(text(1, 60), { nil: undefined }),
    xBairro: text(1, 60),
  })
  .map(({ location, ...rest }) => ({ ...location, ...rest }));

export function dpsDocumentArbitrary(): fc.Arbitrary<DpsDocument> {
  return fc
    .record({
      tpAmb: fc.constantFrom('1', '2' as const),
      serie: fc.integer({ min: 1, max: 99_999 }).map(String),
      nDPS: fc.integer({ min: 1, max: 999_999_999_999_999 }).map(String),
      cLocEmi: digits(7),
      prestId: taxId,
      im: fc.option(digits(8), { nil: undefined }),
      // As the national rules pair them: outside the Simples (1) the approximate taxes; a MEI (2) may say "not
      // informed"; an ME/EPP (3) the Simples rate or the approximate taxes.
      simples: fc.constantFrom('1', '2', '3' as const),
      approximate: fc
        .tuple(cents(100_00), cents(100_00), cents(100_00))
        .map(([pTotTribFed, pTotTribEst, pTotTribMun]) => ({ pTotTrib: { pTotTribFed, pTotTribEst, pTotTribMun } })),
      simplesRate: fc.boolean(),
      toma: fc.option(
        fc.record({
          id: takerId,
          xNome: text(1, 150),
          end: fc.option(address, { nil: undefined }),
          email: fc.option(fc.constant('tomador@example.com'), { nil: undefined }),
        }),
        { nil: undefined },
      ),
      cTribNac: fc.constantFrom('010701', '010101', '171901'),
      xDescServ: text(1, 2000),
      xInfComp: fc.option(text(1, 2000), { nil: undefined }),
      vServ: money,
      discount: fc.option(money, { nil: undefined }),
      ibsCbs: fc.boolean(),
    })
    .map((r): DpsDocument => {
      const prest = {
        ...r.prestId,
        IM: r.im,
        regTrib:
          r.simples === '3'
            ? { opSimpNac: '3' as const, regApTribSN: '1' as const, regEspTrib: '0' as const }
            : { opSimpNac: r.simples, regEspTrib: '0' as const },
      };
      const base = { cLocEmi: r.cLocEmi, prest, serie: r.serie, nDPS: r.nDPS };
      return {
        ...base,
        id: dpsId(base),
        tpAmb: r.tpAmb,
        dhEmi: '2026-07-31T10:15:00-03:00',
        verAplic: 'Talao 0.1.0',
        dCompet: '2026-07-31',
        tpEmit: '1',
        toma: r.toma && { ...r.toma.id, xNome: r.toma.xNome, end: r.toma.end, email: r.toma.email },
        serv: {
          locPrest: { cLocPrestacao: r.cLocEmi },
          cServ: { cTribNac: r.cTribNac, xDescServ: r.xDescServ },
          infoCompl: r.xInfComp === undefined ? undefined : { xInfComp: r.xInfComp },
        },
        valores: {
          vServPrest: { vServ: r.vServ },
          vDescCondIncond: r.discount === undefined ? undefined : { vDescIncond: r.discount },
          trib: {
            tribMun: { tribISSQN: '1', tpRetISSQN: '1' },
            totTrib: r.simples === '2' ? { indTotTrib: '0' } : r.simples === '3' && r.simplesRate ? { pTotTribSN: '6.00' } : r.approximate,
          },
        },
        IBSCBS: r.ibsCbs
          ? {
              finNFSe: '0',
              indFinal: '1',
              cIndOp: '020101',
              indDest: '0',
              valores: { trib: { gIBSCBS: { CST: '000', cClassTrib: '000001' } } },
            }
          : undefined,
      };
    });
}

export function sampleDpsDocument(seed = 7): DpsDocument {
  return fc.sample(dpsDocumentArbitrary(), { seed, numRuns: 1 })[0] as DpsDocument;
}
