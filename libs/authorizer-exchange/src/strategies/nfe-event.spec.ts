import { nfeEventIdentity } from './nfe-event.js';

describe('nfeEventIdentity', () => {
  it('reads the key, tpEvento and nSeqEvento of the stored envelope', () => {
    const envelope =
      '<soap12:Envelope><envEvento><evento><infEvento Id="ID1101103526"><chNFe>35261111222333000181550010000000011000000017</chNFe>' +
      '<tpEvento>110110</tpEvento><nSeqEvento>12</nSeqEvento></infEvento></evento></envEvento></soap12:Envelope>';
    expect(nfeEventIdentity(envelope)).toEqual({ accessKey: '35261111222333000181550010000000011000000017', type: '110110', sequence: 12 });
  });

  it('refuses an envelope that names no event', () => {
    expect(() => nfeEventIdentity('<envEvento/>')).toThrow(/names no chNFe/);
  });
});
