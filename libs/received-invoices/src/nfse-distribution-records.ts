// From the national environment's ADN distribution (NFS-e and their events, each XML already inflated) to the rows
// received-invoice sync stores. ADN serves the company's documents as provider and as taker alike; only those another
// provider issued are received (SPEC.md: "documents other companies issued against the company's tax id").
import { type AdnDistributedDocument, attributeOf, childOf, parseXmlTree, rootOf, textOf, type XmlObject } from '@talao/fiscal-xml';
import type { ReceivedDocumentInput, ReceivedEventInput } from '@talao/persistence';

const dateOf = (text: string | undefined): Date | null => {
  if (!text) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
};

const path = (node: XmlObject | undefined, ...names: string[]): XmlObject | undefined =>
  names.reduce<XmlObject | undefined>((at, name) => (at ? childOf(at, name) : undefined), node);

const nsuText = (nsu: number) => String(nsu).padStart(15, '0');

export type NfseRecord =
  { kind: 'document'; record: ReceivedDocumentInput } | { kind: 'event'; record: ReceivedEventInput } | { kind: 'ignored' };

export function nfseRecordOf(document: AdnDistributedDocument): NfseRecord {
  const root = rootOf(parseXmlTree(document.xml));
  if (root.name === 'NFSe') {
    const info = childOf(root.node, 'infNFSe');
    const emit = path(info, 'emit');
    const dps = path(info, 'DPS', 'infDPS');
    const accessKey = (attributeOf(info ?? {}, 'Id') ?? '').replace(/^NFS/, '') || (document.accessKey ?? '');
    const gross = textOf(path(dps, 'valores', 'vServPrest') ?? {}, 'vServ');
    return {
      kind: 'document',
      record: {
        form: 'full',
        nsu: nsuText(document.nsu),
        accessKey,
        issuerTaxId: (emit && (textOf(emit, 'CNPJ') ?? textOf(emit, 'CPF'))) ?? '',
        issuerName: (emit && textOf(emit, 'xNome')) ?? null,
        issuedAt: dateOf(dps && textOf(dps, 'dhEmi')),
        authorizedAt: dateOf(info && textOf(info, 'dhProc')),
        totalValue: gross ?? textOf(path(info, 'valores') ?? {}, 'vLiq') ?? null,
        protocol: accessKey || null,
        situation: 'authorized',
        xml: document.xml,
      },
    };
  }
  if (root.name === 'evento') {
    const info = childOf(root.node, 'infEvento');
    // Id = EVT + the 50-digit key + the 6-digit event type + the 3-digit sequence (evento_v1.01).
    const id = /^EVT(\d{50})(\d{6})(\d{3})$/.exec(attributeOf(info ?? {}, 'Id') ?? '');
    if (!id) return { kind: 'ignored' };
    return {
      kind: 'event',
      record: {
        nsu: nsuText(document.nsu),
        accessKey: id[1] as string,
        eventType: id[2] as string,
        sequence: Number(id[3]),
        description: document.eventType ?? null,
        authorTaxId: null,
        occurredAt: dateOf(info && textOf(info, 'dhProc')),
        protocol: null,
        xml: document.xml,
      },
    };
  }
  return { kind: 'ignored' };
}

/**
 * The record as a received document of the company `taxId`: a document it issued itself, or an event of one, is not
 * (ignored). An event names its NFS-e by key, whose positions 10–23 are the provider's inscription (CNPJ, or CPF
 * zero-padded): cMun(7) ambGer(1) tpInsc(1) inscription(14) nNFSe(13) AAMM(4) cNum(9) DV(1).
 */
export function receivedBy(record: NfseRecord, taxId: string): NfseRecord {
  const own =
    record.kind === 'document'
      ? record.record.issuerTaxId === taxId
      : record.kind === 'event' && record.record.accessKey.slice(9, 23) === taxId.padStart(14, '0');
  return own ? { kind: 'ignored' } : record;
}
