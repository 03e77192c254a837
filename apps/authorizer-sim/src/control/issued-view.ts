// GET /_control/issued/{taxId}: what the simulated authorizers hold for one issuer, in a shape a test can count
// duplicates from (two documents for one invoice, an event registered twice) without parsing XML.
import { type SimServices } from '../sefaz/sefaz-context.js';

export interface IssuedView {
  nfe: Array<{
    key: string;
    tpAmb: string;
    model: string;
    series: number;
    number: number;
    nProt: string;
    cancelled: boolean;
    events: Array<{ tpEvento: string; nSeqEvento: number; nProt: string }>;
  }>;
  nfse: Array<{ key: string; dpsId: string; tpAmb: string; cancelled: boolean; events: string[] }>;
  inutilized: Array<{ tpAmb: string; model: string; series: number; first: number; last: number; nProt: string }>;
}

export function issuedBy(services: SimServices, taxId: string): IssuedView {
  const sefaz = services.state.issuedBy(taxId);
  return {
    nfe: sefaz.documents.map((d) => ({
      key: d.key,
      tpAmb: d.tpAmb,
      model: d.model,
      series: d.series,
      number: d.number,
      nProt: d.nProt,
      cancelled: d.cancelled,
      events: d.events.map((e) => ({ tpEvento: e.tpEvento, nSeqEvento: e.nSeqEvento, nProt: e.nProt })),
    })),
    nfse: services.nfse.issuedBy(taxId).map((n) => ({
      key: n.key,
      dpsId: n.dpsId,
      tpAmb: n.tpAmb,
      cancelled: n.cancelled,
      events: [...n.events.keys()],
    })),
    inutilized: sefaz.inutilized.map((r) => ({
      tpAmb: r.tpAmb,
      model: r.model,
      series: r.series,
      first: r.first,
      last: r.last,
      nProt: r.nProt,
    })),
  };
}
