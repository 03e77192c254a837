// Preparing a document without a browser: what is printable, what is refused (a caller's 4xx), what the version is.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ChromiumUnavailableError,
  chromiumLaunchOptions,
  documentVersion,
  prepareDocument,
  resolveChromiumPath,
  UnrenderableDocumentError,
} from './index.js';
import { authorizedNfe, authorizedNfse, readFiscalSample } from './testing/index.js';

describe('prepareDocument', () => {
  const nfe = authorizedNfe();

  it('lays out an nfeProc as a DANFE with its key, version and paginator', () => {
    const prepared = prepareDocument(nfe.xml);
    expect(prepared).toMatchObject({ documentType: 'nfe', accessKey: nfe.accessKey, version: 'r2.authorized' });
    expect(prepared.paginate).toContain('paginateDanfe');
    expect(prepared.html).toContain('<template id="continuation">');
    // Nothing in the document points outside it.
    expect(prepared.html).not.toMatch(/(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i);
    expect(prepared.html).not.toMatch(/url\(\s*["']?(?:https?:)?\/\//i);
  });

  it('lays out an NFS-e as a one-page DANFSe', () => {
    const nfse = authorizedNfse();
    const prepared = prepareDocument(nfse.xml, { status: 'replaced' });
    expect(prepared).toMatchObject({ documentType: 'nfse', accessKey: nfse.accessKey, version: 'r2.replaced' });
    expect(prepared.paginate).toBeUndefined();
  });

  it('escapes the document text it prints', () => {
    const xml = nfe.xml.replace('<xNome>TALAO DEMONSTRACAO LTDA</xNome>', '<xNome>A &lt;script&gt;alert(1)&lt;/script&gt; &amp; B</xNome>');
    const html = prepareDocument(xml).html;
    expect(html).toContain('A &lt;script&gt;alert(1)&lt;/script&gt; &amp; B');
    expect(html).not.toContain('<script>alert(1)');
  });

  it.each([
    ['an empty string', ''],
    ['malformed XML', '<nfeProc><NFe>'],
    ['a DOCTYPE (entity expansion)', '<!DOCTYPE x [<!ENTITY a "b">]><nfeProc/>'],
    [
      'an NFe without its protocol',
      readFiscalSample('nfe/nfeProc_v4.00_SP_2018_nfelib.xml')
        .replace(/^[\s\S]*?(<NFe[\s>])/, '$1')
        .replace(/<protNFe[\s\S]*$/, ''),
    ],
    ['a DPS', readFiscalSample('nfse/DPS_v1.01_IBSCBS_minimal.xml')],
    ['a rejected NF-e (cStat 539)', nfe.xml.replace('<cStat>100</cStat>', '<cStat>539</cStat>')],
    ['a protocol for another key', nfe.xml.replace(`<chNFe>${nfe.accessKey}</chNFe>`, `<chNFe>${'1'.repeat(44)}</chNFe>`)],
    [
      'an NFS-e not authorized',
      readFiscalSample('nfse/NFSe_v1.00_homologacao_2022_nfelib.xml').replace('<cStat>100</cStat>', '<cStat>102</cStat>'),
    ],
  ])('refuses %s with a message for the caller', (_what, xml) => {
    expect(() => prepareDocument(xml)).toThrow(UnrenderableDocumentError);
  });

  it('refuses options that do not apply to the document', () => {
    expect(() => prepareDocument(nfe.xml, { status: 'replaced' })).toThrow(/never replaced/);
    expect(() => prepareDocument(authorizedNfse().xml, { correction: { sequence: 1, text: 'x' } })).toThrow(/no correction letter/);
  });
});

describe('documentVersion', () => {
  it('changes with the status, the latest correction letter and how it is printed', () => {
    expect(documentVersion()).toBe('r2.authorized');
    expect(documentVersion({ status: 'cancelled', latestCorrectionSequence: 3 })).toBe('r2.cancelled.cce3');
    expect(documentVersion({ latestCorrectionSequence: 3, correctionPrint: 'reference' })).toBe('r2.authorized.cce3-ref');
    expect(documentVersion({ latestCorrectionSequence: 0 })).toBe('r2.authorized');
  });
});

describe('resolveChromiumPath', () => {
  it('takes the first installed executable of the list: the headless shell before the full browser', () => {
    const folder = mkdtempSync(join(tmpdir(), 'talao-chromium-path-'));
    const [shell, full] = [join(folder, 'chromium-headless-shell'), join(folder, 'chromium')];
    try {
      writeFileSync(full, '', { mode: 0o755 });
      expect(resolveChromiumPath(undefined, {}, [shell, full])).toBe(full);
      writeFileSync(shell, '', { mode: 0o755 });
      expect(resolveChromiumPath(undefined, {}, [shell, full])).toBe(shell);
      expect(resolveChromiumPath(undefined, { CHROMIUM_PATH: full }, [shell, full])).toBe(full);
      expect(() => resolveChromiumPath(undefined, {}, [join(folder, 'absent'), join(folder, 'absent-too')])).toThrow(
        `Chromium not found at ${join(folder, 'absent')}`,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('starts the headless shell in its own headless mode and the full browser in the new one', () => {
    expect(chromiumLaunchOptions('/usr/lib/chromium/chromium-headless-shell').headless).toBe('shell');
    expect(chromiumLaunchOptions('/usr/lib/chromium/chromium').headless).toBe(true);
    expect(chromiumLaunchOptions('/usr/lib/chromium/chromium').args).toContain('--single-process');
  });

  it('says in one line how to get Chromium when the path does not exist', () => {
    expect(() => resolveChromiumPath('/nonexistent/chromium')).toThrow(ChromiumUnavailableError);
    expect(() => resolveChromiumPath(undefined, { CHROMIUM_PATH: '/nonexistent/chromium' })).toThrow(
      'Chromium not found at /nonexistent/chromium: install it (Debian: apt-get install chromium-headless-shell fonts-liberation) or set CHROMIUM_PATH to its executable',
    );
  });
});
