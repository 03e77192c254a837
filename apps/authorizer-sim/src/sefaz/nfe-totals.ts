import { childOf, childrenOf, textOf, type XmlObject } from '@talao/fiscal-xml';

/** Money in the NF-e has at most two decimals (TDec_1302): compare in integer cents, never binary floats. */
export function cents(value: string | undefined): bigint {
  if (value === undefined || value === '') return 0n;
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) throw new Error(`not a money value: ${value}`);
  return BigInt(match[1] as string) * 100n + BigInt(((match[2] ?? '') + '00').slice(0, 2));
}

/**
 * Totals against the sum of items, in the order SEFAZ checks them: 564 products, 535 freight, 536 insurance,
 * 537 discount, then 610 the note's total against its components (with and without the deducted ICMS relief,
 * since indDeduzDeson decides whether vICMSDeson is subtracted).
 */
export function checkTotals(infNFe: XmlObject): string | undefined {
  const items = childrenOf(infNFe, 'det').map((det) => childOf(det, 'prod') ?? {});
  const counted = items.filter((prod) => textOf(prod, 'indTot') !== '0');
  const sum = (list: XmlObject[], field: string) => list.reduce((acc, prod) => acc + cents(textOf(prod, field)), 0n);
  const tot = childOf(childOf(infNFe, 'total') ?? {}, 'ICMSTot');
  if (!tot) return '564';
  const t = (field: string) => cents(textOf(tot, field));
  if (sum(counted, 'vProd') !== t('vProd')) return '564';
  if (sum(items, 'vFrete') !== t('vFrete')) return '535';
  if (sum(items, 'vSeg') !== t('vSeg')) return '536';
  if (sum(items, 'vDesc') !== t('vDesc')) return '537';
  const services = cents(textOf(childOf(childOf(infNFe, 'total') ?? {}, 'ISSQNtot') ?? {}, 'vServ'));
  const gross =
    t('vProd') -
    t('vDesc') +
    t('vST') +
    t('vFCPST') +
    t('vFrete') +
    t('vSeg') +
    t('vOutro') +
    t('vII') +
    t('vIPI') +
    t('vIPIDevol') +
    services;
  if (t('vNF') !== gross && t('vNF') !== gross - t('vICMSDeson')) return '610';
  return undefined;
}

/** CFOP's first digit against idDest (731/732/733) and the states of the parties (521/523). */
export function checkCfop(infNFe: XmlObject): string | undefined {
  const ide = childOf(infNFe, 'ide') ?? {};
  const idDest = textOf(ide, 'idDest');
  const emitUf = textOf(childOf(childOf(infNFe, 'emit') ?? {}, 'enderEmit') ?? {}, 'UF');
  const destUf = textOf(childOf(childOf(infNFe, 'dest') ?? {}, 'enderDest') ?? {}, 'UF');
  for (const det of childrenOf(infNFe, 'det')) {
    const cfop = textOf(childOf(det, 'prod') ?? {}, 'CFOP') ?? '';
    const scope = cfop[0];
    if (scope === '7' || scope === '3') {
      if (idDest !== '3') return '731';
    } else if (scope === '6' || scope === '2') {
      if (idDest !== '2') return '732';
      if (destUf && emitUf && destUf === emitUf) return '523';
    } else if (scope === '5' || scope === '1') {
      if (idDest !== '1') return '733';
      if (destUf && emitUf && destUf !== 'EX' && destUf !== emitUf) return '521';
    }
  }
  return undefined;
}
