// A signed, schema-valid DPS from the fiscal-xml sample document, issued by the test company in São Paulo.
import { type DpsDocument } from '@talao/fiscal-model';
import { buildDps, dpsId } from '@talao/fiscal-xml';
import { type A1Certificate, createSigner } from '@talao/xml-signing';
import { sampleDpsDocument } from '@talao/fiscal-xml/testing';

export function signedDps(
  certificate: A1Certificate,
  options: { cnpj: string; number: number; takerCnpj: string; adjust?: (doc: DpsDocument) => DpsDocument },
): { dpsId: string; signedDps: string } {
  const base = sampleDpsDocument(11);
  const core = {
    cLocEmi: '3550308',
    prest: { ...base.prest, CNPJ: options.cnpj, CPF: undefined },
    serie: '1',
    nDPS: String(options.number),
  };
  const doc: DpsDocument = {
    ...base,
    ...core,
    id: dpsId(core),
    tpAmb: '2',
    toma: { CNPJ: options.takerCnpj, xNome: 'TOMADORA DE SERVICOS LTDA' },
    serv: { ...base.serv, locPrest: { cLocPrestacao: '3550308' } },
  };
  const unsigned = buildDps(options.adjust ? options.adjust(doc) : doc);
  return { dpsId: unsigned.id, signedDps: createSigner(certificate).signDps(unsigned.xml, unsigned.id) };
}
