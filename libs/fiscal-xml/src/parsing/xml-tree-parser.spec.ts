import { readXmlTree, XmlSyntaxError } from './xml-tree-parser.js';

describe('readXmlTree (single pass)', () => {
  it('builds the tree the response parsers expect', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
      <soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body>
        <ret xmlns="http://www.portalfiscal.inf.br/nfe" versao=" 4.00 "><!-- note -->
          <cStat> 100 </cStat><empty/><empty2></empty2><item n="1">a &amp; b</item><item n="2"/><item>c</item>
          <raw><![CDATA[<x> & y]]></raw><ref>&#233;&#x41;&foo;</ref>
        </ret></soap:Body></soap:Envelope>`;
    expect(readXmlTree(xml)).toEqual({
      Envelope: {
        Body: {
          ret: {
            '@_versao': '4.00',
            cStat: '100',
            empty: '',
            empty2: '',
            item: [{ '@_n': '1', '#text': 'a & b' }, { '@_n': '2' }, 'c'],
            raw: '<x> & y',
            ref: 'éA&foo;',
          },
        },
      },
    });
  });

  it.each([
    ['mismatched end tag', '<a><b></a>'],
    ['unclosed element', '<a><b></b>'],
    ['two roots', '<a/><b/>'],
    ['text outside the root', 'x<a/>'],
    ['a bare ampersand', '<a>fish & chips</a>'],
    ['"<" in an attribute value', '<a b="<"/>'],
    ['an unquoted attribute', '<a b=1/>'],
    ['an attribute without a value', '<a b/>'],
    ['a repeated attribute', '<a b="1" b="2"/>'],
    ['attributes without white space between them', '<a b="1"c="2"/>'],
    ['a markup declaration', '<!DOCTYPE a><a/>'],
    ['a late XML declaration', '<a/><?xml version="1.0"?>'],
    ['a malformed XML declaration', '<?xml version="1.0 encoding="UTF-8"?><a/>'],
    ['a prototype-polluting name', '<a><__proto__>x</__proto__></a>'],
    ['a character reference out of range', '<a>&#1114112;</a>'],
    ['deep nesting', `${'<a>'.repeat(65)}${'</a>'.repeat(65)}`],
    ['no element at all', '  '],
  ])('refuses %s', (_what, xml) => {
    expect(() => readXmlTree(xml)).toThrow(XmlSyntaxError);
  });

  it('accepts nesting up to the bound', () => {
    expect(() => readXmlTree(`${'<a>'.repeat(64)}${'</a>'.repeat(64)}`)).not.toThrow();
  });
});
