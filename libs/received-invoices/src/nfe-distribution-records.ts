// From what NFeDistribuicaoDFe hands out (each docZip already inflated and read by @talao/fiscal-xml) to the rows
// received-invoice sync stores: resNFe a summary, nfeProc the full document, resEvento / procEventoNFe an event.
import { childOf, type DistributedDocument, parseXmlTree, rootOf, textOf } from '@talao/fiscal-xml';
import type { ReceivedDocumentInput, ReceivedEventInput } from '@talao/persistence';

const SITUATIONS: Record<string, ReceivedDocumentInput['situation']> = { '1': 'authorized', '2': 'denied', '3': 'cancelled' };

const dateOf = (text: string | undefined): Date | null => {
  if (!text) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** The fields of the full NF-e the summary would have carried (issuer name, issue date, total). */
function fullNfeFields(xml: string): { issuerName: string | null; issuedAt: Date | null; total: string | null } {
  const nfe = childOf(rootOf(parseXmlTree(xml)).node, 'NFe');
  const info = nfe && childOf(nfe, 'infNFe');
  const emit = info && childOf(info, 'emit');
  const ide = info && childOf(info, 'ide');
  const totals = info && childOf(childOf(info, 'total') ?? {}, 'ICMSTot');
  return {
    issuerName: (emit && textOf(emit, 'xNome')) ?? null,
    issuedAt: dateOf(ide && textOf(ide, 'dhEmi')),
    total: (totals && textOf(totals, 'vNF')) ?? null,
  };
}

export type DistributedRecord =
  { kind: 'document'; record: ReceivedDocumentInput } | { kind: 'event'; record: ReceivedEventInput } | { kind: 'ignored'; root: string };

type DistributedEvent = Extract<DistributedDocument, { kind: 'resEvento' | 'procEventoNFe' }>;

/** An event, from its summary (resEvento) or in full (procEventoNFe): what differs is where each field is read. */
function eventRecord(
  document: DistributedEvent,
  read: Pick<ReceivedEventInput, 'description' | 'authorTaxId' | 'protocol'>,
): DistributedRecord {
  const s = document.summary;
  return {
    kind: 'event',
    record: {
      nsu: document.nsu,
      accessKey: s.accessKey,
      eventType: s.type,
      sequence: Number(s.sequence),
      description: read.description,
      authorTaxId: read.authorTaxId,
      occurredAt: dateOf(s.eventAt),
      protocol: read.protocol,
      xml: document.xml,
    },
  };
}

export function recordOf(document: DistributedDocument): DistributedRecord {
  switch (document.kind) {
    case 'resNFe': {
      const s = document.summary;
      return {
        kind: 'document',
        record: {
          form: 'summary',
          nsu: document.nsu,
          accessKey: s.accessKey,
          issuerTaxId: s.issuerTaxId,
          issuerName: s.issuerName,
          issuedAt: dateOf(s.issuedAt),
          authorizedAt: dateOf(s.receivedAt),
          totalValue: s.total,
          protocol: s.protocolNumber ?? null,
          situation: SITUATIONS[s.situation] ?? 'authorized',
          xml: document.xml,
        },
      };
    }
    case 'procNFe': {
      const s = document.summary;
      const full = fullNfeFields(document.xml);
      return {
        kind: 'document',
        record: {
          form: 'full',
          nsu: document.nsu,
          accessKey: s.accessKey,
          issuerTaxId: s.issuerTaxId ?? '',
          issuerName: full.issuerName,
          issuedAt: full.issuedAt,
          authorizedAt: dateOf(s.protocol?.receivedAt),
          totalValue: full.total,
          protocol: s.protocol?.protocolNumber ?? null,
          situation: 'authorized',
          xml: document.xml,
        },
      };
    }
    case 'resEvento': {
      const s = document.summary;
      return eventRecord(document, { description: s.description, authorTaxId: s.authorTaxId || null, protocol: s.protocolNumber });
    }
    case 'procEventoNFe': {
      const s = document.summary;
      return eventRecord(document, {
        description: s.result.description ?? null,
        authorTaxId: null,
        protocol: s.result.protocolNumber ?? null,
      });
    }
    default:
      return { kind: 'ignored', root: document.root };
  }
}
