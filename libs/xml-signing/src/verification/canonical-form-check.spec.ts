import { compactSample, readSample, withoutSignatures } from '../testing/shared-samples.js';
import { canonicalFormMismatch } from './canonical-form-check.js';

const NFE = 'http://www.portalfiscal.inf.br/nfe';
const canonical = `<NFe xmlns="${NFE}"><infNFe Id="NFe1" versao="4.00"><ide><cUF>35</cUF></ide><prod><xProd>A &amp; B &lt;x&gt; "q" 'a'</xProd></prod></infNFe></NFe>`;

describe('canonicalFormMismatch (the contract check for builders)', () => {
  it('accepts canonical documents, including real ones made compact', () => {
    expect(canonicalFormMismatch(canonical, 'NFe1', 'inclusive')).toBeNull();
    expect(canonicalFormMismatch(canonical, 'NFe1', 'exclusive')).toBeNull();
    // A prefixed declaration on an ancestor is rendered on the apex by inclusive C14N, and by the signer too.
    const withXsi = canonical.replace('<NFe ', '<NFe xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ');
    expect(canonicalFormMismatch(withXsi, 'NFe1', 'inclusive')).toBeNull();
    expect(canonicalFormMismatch(withXsi, 'NFe1', 'exclusive')).toBeNull();
    const lot = withoutSignatures(readSample('nfe/envEvento_cancelamento_110111_SIGNATURE_VALID.xml'));
    expect(canonicalFormMismatch(lot, 'ID1101113515030082260200012455001000992346109923465601', 'inclusive')).toBeNull();
    const dps = compactSample(readSample('nfse/DPS_v1.01_IBSCBS_minimal.xml'));
    expect(canonicalFormMismatch(dps, /Id="([^"]+)"/.exec(dps)![1]!, 'exclusive')).toBeNull();
  });

  it.each([
    ['a self-closing tag', canonical.replace('<ide><cUF>35</cUF></ide>', '<ide/>')],
    ['attributes out of C14N order in a descendant', canonical.replace('<prod>', '<prod b="1" a="2">')],
    ['the default namespace redeclared inside the signed element', canonical.replace('<prod>', `<prod xmlns="${NFE}">`)],
    ['an entity C14N would not write', canonical.replace('"q"', '&quot;q&quot;')],
    ['a carriage return', canonical.replace('<cUF>35', '<cUF>\r\n35')],
  ])('reports %s', (_case, xml) => {
    expect(canonicalFormMismatch(xml, 'NFe1', 'inclusive')).toMatch(/differ at offset \d+/);
  });
});
