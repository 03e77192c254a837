import { parseDocument } from '../format/xml-read.js';
import { readFiscalSample } from '../testing/authorized-nfse.js';
import { readNfeProc } from './read-nfe-proc.js';

describe('readNfeProc', () => {
  it('reads what the DANFE prints from a real reform sample', () => {
    const model = readNfeProc(parseDocument(readFiscalSample('nfe/nfeProc_v4.00_IBSCBS_reforma_nfelib.xml')).node);
    expect(model).toMatchObject({
      accessKey: '15231207933914000154550010006643501427015088',
      number: '664350',
      series: '1',
      operationType: '1',
      environment: '1',
      emissionType: '1',
      protocol: { number: '315230052780138' },
      issuer: { name: 'Contribuinte A', taxId: '00127786000102', stateRegistrationSt: '0043763020020', simplesNacional: false },
      recipient: { name: 'Contribuinte B', address: { city: 'BELO HORIZONTE', state: 'MG' } },
      reformTotals: { base: '2000.50', ibs: '50', cbs: '87.29', selectiveTax: '1000', invoiceWithReform: '5000' },
      transport: { freightMode: '0 - Remetente (CIF)', carrierName: 'ACO CEARENSE LOGISTICA LTDA' },
    });
    expect(model.totals.invoice).toBe('164746.81');
    expect(model.items[0]).toMatchObject({ number: '1', code: '98007', cst: '010', cfop: '5405', icmsRate: '12.0000' });
    expect(model.billing.invoice?.number).toBe('0000664350');
  });

  it('has no reform totals on a document without IBSCBSTot', () => {
    const model = readNfeProc(parseDocument(readFiscalSample('nfe/nfeProc_v4.00_SP_2018_nfelib.xml')).node);
    expect(model.reformTotals).toBeUndefined();
    expect(model.items.length).toBeGreaterThan(1);
  });
});
