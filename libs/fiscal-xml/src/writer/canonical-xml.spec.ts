import { element, escapeAttribute, escapeText, optionalElement, optionalTextElement, textElement, XmlBuildError } from './canonical-xml.js';
import { formatFiscalDateTime, stateUtcOffset } from './fiscal-datetime.js';

describe('canonical XML writer', () => {
  it('escapes text and attributes as C14N does', () => {
    expect(escapeText('a&b<c>d"e\'f\rg\th\ni')).toBe('a&amp;b&lt;c&gt;d"e\'f&#xD;g\th\ni');
    expect(escapeAttribute('a&b<c>d"e\tf\ng\rh')).toBe('a&amp;b&lt;c>d&quot;e&#x9;f&#xA;g&#xD;h');
  });

  it('orders attributes: default namespace, prefixed namespaces, then names in code-point order', () => {
    expect(element('a', '', { versao: '1', Id: 'x', 'xmlns:ds': 'd', xmlns: 'n' })).toBe(
      '<a xmlns="n" xmlns:ds="d" Id="x" versao="1"></a>',
    );
  });

  it('never self-closes and drops undefined optionals', () => {
    expect(textElement('x', '')).toBe('<x></x>');
    expect(optionalTextElement('x', undefined)).toBe('');
    expect(optionalElement('g', '')).toBe('');
    expect(element('a', '', { b: undefined })).toBe('<a></a>');
  });

  it('refuses characters XML cannot carry, non-integer numbers and qualified attributes', () => {
    expect(() => textElement('x', 'a\u0001b')).toThrow(XmlBuildError);
    expect(() => textElement('x', '\uD800')).toThrow(XmlBuildError);
    expect(() => textElement('x', 1.5)).toThrow(/integer/);
    expect(() => element('a', '', { 'xsi:type': 't' })).toThrow(/qualified/);
    expect(textElement('x', '😀')).toBe('<x>😀</x>');
  });

  it('formats fiscal date-times with the state offset', () => {
    expect(formatFiscalDateTime(new Date('2026-01-01T02:30:00Z'), '-03:00')).toBe('2025-12-31T23:30:00-03:00');
    expect(formatFiscalDateTime(new Date('2026-01-01T02:30:00Z'), stateUtcOffset('AM'))).toBe('2025-12-31T22:30:00-04:00');
    expect(stateUtcOffset('AC')).toBe('-05:00');
    expect(stateUtcOffset('SP')).toBe('-03:00');
    expect(() => formatFiscalDateTime(new Date('x'), '-03:00')).toThrow(/invalid/);
  });
});
