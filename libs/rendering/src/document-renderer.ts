// The library's entry point for a `pdf` queue handler or the gateway: authorized XML in, PDF bytes and what to serve
// them with out. `prepareDocument` (pure: XML → HTML and metadata) is apart from printing, so it is testable alone
// and a caller can compute the version (cache key) without rendering.
import { PdfEngine, type PdfEngineOptions, type PdfEngineStats } from './browser/pdf-engine.js';
import type { ProcessTreeMemory } from './browser/process-memory.js';
import { documentVersion } from './document-version.js';
import { UnrenderableDocumentError } from './errors.js';
import { parseDocument } from './format/xml-read.js';
import { PAGINATE_CALL } from './layout/paginate-script.js';
import { danfeHtml } from './nfe/danfe-html.js';
import { readNfeProc } from './nfe/read-nfe-proc.js';
import { danfseHtml } from './nfse/danfse-html.js';
import { readNfse } from './nfse/read-nfse.js';
import type { RenderOptions } from './render-options.js';

export type PrintedDocumentType = 'nfe' | 'nfse';

export interface PreparedDocument {
  readonly documentType: PrintedDocumentType;
  readonly accessKey: string;
  readonly version: string;
  readonly html: string;
  /** The in-page expression that paginates and returns the sheet count (DANFE); the DANFSe is one page. */
  readonly paginate?: string;
}

export interface RenderedDocument {
  readonly pdf: Buffer;
  readonly contentType: 'application/pdf';
  readonly documentType: PrintedDocumentType;
  readonly accessKey: string;
  readonly version: string;
  readonly pageCount: number;
  /** `<access key>.pdf`, for Content-Disposition. */
  readonly fileName: string;
  readonly renderMs: number;
}

/** Reads the XML and lays the document out; throws UnrenderableDocumentError for anything that is not printable. */
export function prepareDocument(documentXml: string, options: RenderOptions = {}): PreparedDocument {
  const root = parseDocument(documentXml);
  const status = options.status ?? 'authorized';
  if (root.name === 'nfeProc') {
    if (status === 'replaced') throw new UnrenderableDocumentError('an NF-e is never replaced; status "replaced" is for an NFS-e');
    const model = readNfeProc(root.node);
    const version = documentVersion({
      status,
      latestCorrectionSequence: options.correction?.sequence,
      correctionPrint: options.correctionPrint,
    });
    return { documentType: 'nfe', accessKey: model.accessKey, version, html: danfeHtml(model, options), paginate: PAGINATE_CALL };
  }
  if (root.name === 'NFSe') {
    if (options.correction) throw new UnrenderableDocumentError('an NFS-e has no correction letter (CC-e is an NF-e event)');
    const model = readNfse(root.node);
    return { documentType: 'nfse', accessKey: model.accessKey, version: documentVersion({ status }), html: danfseHtml(model, status) };
  }
  if (root.name === 'NFe')
    throw new UnrenderableDocumentError('an NFe without its protocol: the DANFE prints the authorized nfeProc (NFe + protNFe)');
  throw new UnrenderableDocumentError(`<${root.name}> is not a printable document: expected an authorized nfeProc or NFSe`);
}

export class DocumentRenderer {
  private constructor(private readonly engine: PdfEngine) {}

  /** Launches the warm Chromium and its page pool (ChromiumUnavailableError when Chromium is missing). */
  static async start(options: PdfEngineOptions = {}): Promise<DocumentRenderer> {
    return new DocumentRenderer(await PdfEngine.launch(options));
  }

  async render(documentXml: string, options: RenderOptions = {}): Promise<RenderedDocument> {
    const started = performance.now();
    const prepared = prepareDocument(documentXml, options);
    const printed = await this.engine.render(prepared.html, prepared.paginate);
    return {
      pdf: printed.pdf,
      contentType: 'application/pdf',
      documentType: prepared.documentType,
      accessKey: prepared.accessKey,
      version: prepared.version,
      pageCount: printed.pageCount,
      fileName: `${prepared.accessKey}.pdf`,
      renderMs: performance.now() - started,
    };
  }

  get stats(): Readonly<PdfEngineStats> {
    return this.engine.stats;
  }

  get browserPid(): number | undefined {
    return this.engine.browserPid;
  }

  memory(): Promise<ProcessTreeMemory | undefined> {
    return this.engine.memory();
  }

  close(): Promise<void> {
    return this.engine.close();
  }
}
