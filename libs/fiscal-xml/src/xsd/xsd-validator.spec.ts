import { OFFICIAL_NFE_SCHEMAS, readSample } from '../testing/shared-fiscal.js';
import { type SchemaName } from './schema-catalog.js';
import { XsdValidationError, assertValid, createSchemaValidator, validateXml, validateXmlDocument } from './xsd-validator.js';

/** The element `name` cut out of a SOAP message (it declares its own namespace in these samples). */
function extractElement(xml: string, name: string): string {
  const start = xml.indexOf(`<${name} `);
  const endTag = `</${name}>`;
  const end = xml.indexOf(endTag, start);
  if (start < 0 || end < 0) throw new Error(`${name} not found`);
  return xml.slice(start, end + endTag.length);
}

// Which sample is valid against what: /work/shared/fiscal/SOURCES.md ("schema-valid against …").
const VALID_SAMPLES: [SchemaName, string][] = [
  ['procNFe', 'nfe/nfeProc_v4.00_SP_2018_nfelib.xml'],
  ['procNFe', 'nfe/nfeProc_v4.00_PR_2017_nfelib.xml'],
  ['procNFe', 'nfe/nfeProc_v4.00_RS_2018_spednfe.xml'],
  ['procNFe', 'nfe/nfeProc_v4.00_IBSCBS_reforma_nfelib.xml'],
  ['envEventoCancNFe', 'nfe/envEvento_cancelamento_110111_SIGNATURE_VALID.xml'],
  ['envEvento', 'nfe/envEvento_cancelamento_110111_SIGNATURE_VALID.xml'],
  ['envConfRecebto', 'nfe/envEvento_manifestacao_SIGNATURE_VALID.xml'],
  ['envCCe', 'nfe/envEvento_cce_110110.xml'],
  ['procEventoNFe', 'nfe/procEventoNFe_cce_110110_SIGNATURE_VALID.xml'],
  ['inutNFe', 'nfe/inutNFe_v4.00_request.xml'],
  ['retDistDFeInt', 'nfe/retDistDFeInt_v1.01_standalone.xml'],
  ['resNFe', 'nfe/dist/000000000006762_resNFe_v1.01.xml'],
  ['resEvento', 'nfe/dist/000000000006765_resEvento_v1.01.xml'],
  ['procEventoNFe', 'nfe/dist/000000000006776_procEventoNFe_v1.00.xml'],
  ['procEventoNFe', 'nfe/dist/000000000006783_procEventoNFe_v1.00.xml'],
  ['procEventoNFe', 'nfe/dist/000000000006805_procEventoNFe_v1.00.xml'],
  ['dps', 'nfse/DPS_v1.01_IBSCBS_minimal.xml'],
  ['dps', 'nfse/DPS_v1.01_IBSCBS_with_retention.xml'],
  ['dps', 'nfse/DPS_v1.00_simples_nacional.xml'],
  ['nfse', 'nfse/NFSe_v1.00_homologacao_2022_nfelib.xml'],
];

describe('XSD validation (libxml2-wasm, compiled schemas cached)', () => {
  it.each(VALID_SAMPLES)('%s accepts the real sample %s', (schema, sample) => {
    expect(validateXml(schema, readSample(sample))).toEqual({ valid: true });
  });

  it.each([
    ['retEnviNFe', 'nfe/soap/NFeAutorizacao4_response_retEnviNFe_sync_cStat104.xml'],
    ['retInutNFe', 'nfe/soap/NFeInutilizacao4_response_retInutNFe.xml'],
    ['retEnvEvento', 'nfe/soap/RecepcaoEvento_cancelamento_response.xml'],
  ] as [SchemaName, string][])('%s accepts the body of the real SOAP response %s', (schema, sample) => {
    const root = schema === 'retEnvEvento' ? 'retEnvEvento' : schema;
    expect(validateXml(schema, extractElement(readSample(sample), root))).toEqual({ valid: true });
  });

  it('rejects the negative NFS-e sample (old cancellation Id format)', () => {
    const result = validateXml('pedRegEvento', readSample('nfse/negative/pedRegEvento_cancelamento_OLD_ID_FORMAT_invalid.xml'));
    expect(result.valid).toBe(false);
  });

  it('reports a broken document with the element, the reason and the line', () => {
    const broken = readSample('nfe/nfeProc_v4.00_SP_2018_nfelib.xml').replace(/<CFOP>\d{4}<\/CFOP>/, '<CFOP>59X2</CFOP>');
    const result = validateXml('procNFe', broken);
    expect(result.valid).toBe(false);
    if (result.valid) return;
    const line = broken.split('\n').findIndex((text) => text.includes('<CFOP>59X2')) + 1;
    expect(result.errors[0]).toEqual({ line, message: expect.stringMatching(/CFOP.*59X2.*pattern|CFOP.*'59X2'/s) });
    expect(() => assertValid('procNFe', broken)).toThrow(XsdValidationError);
    expect(() => assertValid('procNFe', broken)).toThrow(new RegExp(`line ${line}: .*CFOP`));
  });

  it('accepts an alphanumeric CNPJ (runtime package) that the official numeric-only package refuses', () => {
    const sample = readSample('nfe/nfeProc_v4.00_IBSCBS_reforma_nfelib.xml');
    const alphanumeric = sample.replace(/<emit>\s*<CNPJ>\d{14}<\/CNPJ>/, (emit) => emit.replace(/<CNPJ>\d{12}/, '<CNPJ>12ABC34501DE'));
    expect(alphanumeric).not.toBe(sample);
    expect(validateXml('procNFe', alphanumeric)).toEqual({ valid: true });
    const official = createSchemaValidator({
      schemaFile: (schema) => `${OFFICIAL_NFE_SCHEMAS}nfe/${schema === 'nfe' ? 'nfe' : 'procNFe'}_v4.00.xsd`,
    });
    try {
      expect(official.validateXml('procNFe', sample)).toEqual({ valid: true });
      expect(official.validateXml('procNFe', alphanumeric).valid).toBe(false);
    } finally {
      official.dispose();
    }
  });

  it('refuses DOCTYPE and entity declarations before parsing', () => {
    const xxe =
      '<?xml version="1.0"?><!DOCTYPE consStatServ [<!ENTITY x SYSTEM "file:///etc/passwd">]><consStatServ xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><tpAmb>2</tpAmb><cUF>35</cUF><xServ>&x;</xServ></consStatServ>';
    const result = validateXml('consStatServ', xxe);
    expect(result).toEqual({ valid: false, errors: [{ line: 1, message: expect.stringMatching(/DOCTYPE/) }] });
  });

  it('refuses a document whose root is not the schema root (an XSD also accepts its imported ds:Signature)', () => {
    const signatureOnly = '<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"/>';
    const result = validateXml('nfe', signatureOnly);
    expect(result.valid).toBe(false);
    const statusRequest =
      '<consStatServ xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><tpAmb>2</tpAmb><cUF>35</cUF><xServ>STATUS</xServ></consStatServ>';
    expect(validateXml('consStatServ', statusRequest)).toEqual({ valid: true });
    expect(validateXml('consSitNFe', statusRequest).valid).toBe(false);
  });

  it('reports malformed XML as invalid, never as a pass', () => {
    const result = validateXml('consStatServ', '<consStatServ xmlns="http://www.portalfiscal.inf.br/nfe"><tpAmb>');
    expect(result.valid).toBe(false);
  });

  it('throws for an unknown schema name or a missing schema file: it never passes', () => {
    expect(() => validateXml('nope' as SchemaName, '<a/>')).toThrow(/Unknown XSD schema/);
    const missing = createSchemaValidator({ schemaFile: () => '/nonexistent/schema.xsd' });
    expect(() => missing.validateXml('nfe', '<NFe xmlns="http://www.portalfiscal.inf.br/nfe"/>')).toThrow(/ENOENT/);
    missing.dispose();
  });

  it('validateXmlDocument: the same verdict and errors as validateXml, and the parsed document when valid', () => {
    const sample = readSample('nfe/nfeProc_v4.00_SP_2018_nfelib.xml');
    const valid = validateXmlDocument('procNFe', sample);
    expect(valid.valid).toBe(true);
    if (valid.valid) {
      try {
        expect(valid.document.root.name).toBe('nfeProc');
        expect(valid.document.get('//nfe:CFOP', { nfe: 'http://www.portalfiscal.inf.br/nfe' })?.content).toMatch(/^\d{4}$/);
      } finally {
        valid.document.dispose();
      }
    }
    const broken = sample.replace(/<CFOP>\d{4}<\/CFOP>/, '<CFOP>59X2</CFOP>');
    for (const xml of [
      broken,
      '<consStatServ xmlns="http://www.portalfiscal.inf.br/nfe"><tpAmb>',
      '<!DOCTYPE x><x/>',
      '<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"/>',
    ]) {
      expect(validateXmlDocument('procNFe', xml)).toEqual(validateXml('procNFe', xml));
      expect(validateXmlDocument('procNFe', xml).valid).toBe(false);
    }
  });

  it('validates a 19 KB document in a few milliseconds once compiled', () => {
    const sample = readSample('nfe/nfeProc_v4.00_IBSCBS_reforma_nfelib.xml');
    validateXml('procNFe', sample);
    const rounds = 50;
    const started = performance.now();
    for (let i = 0; i < rounds; i++) validateXml('procNFe', sample);
    const perDocument = (performance.now() - started) / rounds;
    expect(perDocument).toBeLessThan(25);
  });
});
