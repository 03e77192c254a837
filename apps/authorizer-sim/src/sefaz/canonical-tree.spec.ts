// readCanonicalTree is parseXmlTree on the messages issuers send: the same tree (keys in the same order), and no
// tree where parseXmlTree throws or where the text is written otherwise.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildEnviNFe, parseXmlTree, rawElement } from '@talao/fiscal-xml';
import { createTestCertificateAuthority } from '@talao/icp-test-ca';
import { createSigner, loadPkcs12 } from '@talao/xml-signing';
import { XmlC14NMode, XmlDocument } from 'libxml2-wasm';
import { readCanonicalTree } from './canonical-tree.js';
import { oneCharacterMutations } from './one-character-mutations.js';

// apps/authorizer-sim/src/sefaz/ is four levels below the repository root.
const samples = fileURLToPath(new URL('../../../../fixtures/fiscal/samples/nfe/', import.meta.url));
const readSample = (file: string) => readFileSync(`${samples}${file}`, 'utf8');

/** parseXmlTree's answer as text (keys in order), or its error; readCanonicalTree must give that tree or nothing. */
function parsed(xml: string): string {
  try {
    return JSON.stringify(parseXmlTree(xml));
  } catch (error) {
    return `throws ${(error as Error).message}`;
  }
}

function expectSameOrNoTree(name: string, xml: string): 'canonical' | 'parseXmlTree' {
  const tree = readCanonicalTree(xml);
  if (tree === undefined) return 'parseXmlTree';
  expect([name, JSON.stringify(tree)]).toEqual([name, parsed(xml)]);
  return 'canonical';
}

describe('readCanonicalTree', () => {
  const ca = createTestCertificateAuthority();
  const certificate = loadPkcs12(ca.issueA1({ taxId: '11222333000181', legalName: 'EMPRESA', password: 'x' }), 'x');
  const sampleNfe = rawElement(readSample('nfeProc_v4.00_PR_2017_nfelib.xml').replace(/^<\?xml[^>]*\?>\s*/, ''), 'NFe') as string;
  const sampleDocument = XmlDocument.fromString(sampleNfe);
  const unsigned = sampleDocument.canonicalizeToString({ mode: XmlC14NMode.XML_C14N_1_0 }).replace(/<Signature[\s\S]*<\/Signature>/, '');
  sampleDocument.dispose();
  const signedNfe = createSigner(certificate).signNfeFamily(unsigned, /Id="(NFe\d{44})"/.exec(unsigned)?.[1] as string);
  const lot = buildEnviNFe({ lotId: '1', signedNfe });

  it("builds parseXmlTree's tree of the enviNFe the issuer sends", () => {
    expect(expectSameOrNoTree('lot', lot)).toBe('canonical');
  });

  it('builds the same tree or none on every other shape', () => {
    const variants: Record<string, string> = {
      'repeated elements, mixed content and references': '<a x=" 1 " y="2"><b>1</b><b>2</b>t &amp; <c></c>u &lt;&gt;<b>3</b></a>',
      'an element with attributes and text': '<a><b k="v"> text </b></a>',
      'an xmlns and another attribute': '<a xmlns="urn:a" z="1" b="2"><b xmlns="urn:b"></b></a>',
      'a BOM and white space around the root': '\uFEFF  <a>x</a>\n',
      'text outside the root': '<a></a>x',
      'two roots': '<a></a><b></b>',
      'an unclosed element': '<a><b></b>',
      'a mismatched end tag': '<a><b></c></a>',
      'a repeated attribute': '<a x="1" x="2"></a>',
      'a repeated xmlns': '<a xmlns="urn:a" xmlns="urn:a"></a>',
      'a reserved element name': '<a><__proto__>x</__proto__></a>',
      'a reserved attribute name': '<a constructor="x"></a>',
      'a prefixed name': '<n:a xmlns:n="urn:n"><n:b>1</n:b></n:a>',
      'a self-closing element': '<a><b/></a>',
      'a comment': '<a><!-- c -->x</a>',
      'a CDATA section': '<a><![CDATA[ x ]]></a>',
      'an XML declaration': '<?xml version="1.0"?><a>x</a>',
      'a DOCTYPE': '<!DOCTYPE a><a>x</a>',
      'a character reference': '<a>&#65;</a>',
      'an unknown reference': '<a>&foo;</a>',
      'a bare ampersand': '<a>x & y</a>',
      '> in text': '<a>x > y</a>',
      'single quotes': "<a x='1'></a>",
      'spaces in a tag': '<a  x="1" ></a >',
      '64 nested elements': `${'<e>'.repeat(64)}x${'</e>'.repeat(64)}`,
      '65 nested elements': `${'<e>'.repeat(65)}x${'</e>'.repeat(65)}`,
      empty: '',
    };
    const answers = Object.fromEntries(Object.entries(variants).map(([name, xml]) => [name, expectSameOrNoTree(name, xml)]));
    expect(answers).toMatchObject({
      'repeated elements, mixed content and references': 'canonical',
      'an element with attributes and text': 'canonical',
      'an xmlns and another attribute': 'canonical',
      '64 nested elements': 'canonical',
      '65 nested elements': 'parseXmlTree',
      'a repeated xmlns': 'parseXmlTree',
      'a reserved element name': 'parseXmlTree',
      'text outside the root': 'parseXmlTree',
    });
  });

  it('builds the same tree or none when one character is inserted, removed or replaced anywhere in the lot', () => {
    const tricky = ['<', '>', '&', '"', "'", '\r', '\n', '\t', ' ', '/', '=', ':', '!', '?', 'a', '0', 'ç', ';'];
    for (const { label, text } of oneCharacterMutations(lot, tricky, 1000, 54321)) expectSameOrNoTree(label, text);
  });
});
