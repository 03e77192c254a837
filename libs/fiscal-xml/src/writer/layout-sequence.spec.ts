import { XmlBuildError } from './canonical-xml.js';
import { nestedFields, sequenceXml } from './layout-sequence.js';

interface Sample {
  a: string;
  b?: string;
  n?: { x: string; y?: number };
}

describe('sequenceXml', () => {
  it('writes the fields in the order given, leaves out absent optional ones and writes nested groups in place', () => {
    const parts = ['a', 'b?', nestedFields<Sample, 'n'>('n', ['x', 'y?'])] as const;
    expect(sequenceXml<Sample>('s', { a: '1' }, parts)).toBe('<a>1</a>');
    expect(sequenceXml<Sample>('s', { a: '1', b: '<2>', n: { x: '3', y: 4 } }, parts)).toBe('<a>1</a><b>&lt;2&gt;</b><x>3</x><y>4</y>');
  });

  it('names the group and the field when a required one is missing', () => {
    expect(() => sequenceXml('grp', { b: '2' } as unknown as Sample, ['a'])).toThrow(new XmlBuildError('grp.a: required'));
    expect(() => sequenceXml('grp', { a: '1', n: {} } as unknown as Sample, ['a', nestedFields<Sample, 'n'>('n', ['x'])])).toThrow(
      new XmlBuildError('n.x: required'),
    );
  });
});
