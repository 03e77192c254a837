import { isAccessKeyValid } from '@talao/fiscal-model';
import { childOf, textOf, type XmlObject } from '@talao/fiscal-xml';
import { contingencyEmissionType, type SefazCall, statesServedBy } from './sefaz-context.js';

export const HOMOLOGATION_RECIPIENT_NAME = 'NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL';
/** Clock tolerance for an issue time ahead of the authorizer's (703 beyond it). */
export const CLOCK_TOLERANCE_MS = 5 * 60 * 1000;
/** How old an NF-e may be when first sent (228 beyond it). */
export const MAX_ISSUE_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Identity of the NF-e against its access key and the endpoint: 227 (Id literal), 236 (check digit), 502 (key vs
 * the fields it concatenates), 226 (state not served here), 570 (tpEmis vs SVC), 703 / 228 (issued in the future /
 * too long ago), 598 (homologation recipient), 972 (infRespTec).
 */
export function checkNfeDocument(call: SefazCall, infNFe: XmlObject, id: string, now: Date): string | undefined {
  if (!id.startsWith('NFe')) return '227';
  const key = id.slice(3);
  if (!isAccessKeyValid(key)) return '236';
  const ide = childOf(infNFe, 'ide') ?? {};
  const emit = childOf(infNFe, 'emit') ?? {};
  const dhEmi = textOf(ide, 'dhEmi') ?? '';
  const issuer = (textOf(emit, 'CNPJ') ?? textOf(emit, 'CPF') ?? '').padStart(14, '0');
  const expected =
    (textOf(ide, 'cUF') ?? '') +
    dhEmi.slice(2, 4) +
    dhEmi.slice(5, 7) +
    issuer +
    (textOf(ide, 'mod') ?? '') +
    (textOf(ide, 'serie') ?? '').padStart(3, '0') +
    (textOf(ide, 'nNF') ?? '').padStart(9, '0') +
    (textOf(ide, 'tpEmis') ?? '') +
    (textOf(ide, 'cNF') ?? '') +
    (textOf(ide, 'cDV') ?? '');
  if (expected !== key) return '502';
  if (!statesServedBy(call.authorizer).includes(textOf(ide, 'cUF') ?? '')) return '226';
  const svcType = contingencyEmissionType(call.authorizer);
  const tpEmis = textOf(ide, 'tpEmis');
  if (svcType ? tpEmis !== svcType : tpEmis === '6' || tpEmis === '7') return '570';
  const issuedAt = Date.parse(dhEmi);
  if (Number.isNaN(issuedAt) || issuedAt > now.getTime() + CLOCK_TOLERANCE_MS) return '703';
  if (issuedAt < now.getTime() - MAX_ISSUE_AGE_MS) return '228';
  const dest = childOf(infNFe, 'dest');
  if (call.tpAmb === '2' && dest && textOf(dest, 'xNome') !== HOMOLOGATION_RECIPIENT_NAME) return '598';
  if (!childOf(infNFe, 'infRespTec')) return '972';
  return undefined;
}
