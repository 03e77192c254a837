// Printed representations of authorized documents: DANFE (NF-e) and DANFSe (NFS-e Nacional) as PDF, laid out in
// HTML/CSS and printed by a warm headless Chromium with a page pool. See README.md.
export {
  DocumentRenderer,
  prepareDocument,
  type PreparedDocument,
  type PrintedDocumentType,
  type RenderedDocument,
} from './document-renderer.js';
export { documentVersion, LAYOUT_REVISION, type VersionInput } from './document-version.js';
export type { CorrectionLetter, DocumentStatus, RenderOptions } from './render-options.js';
export { ChromiumUnavailableError, RendererFailedError, UnrenderableDocumentError } from './errors.js';
export { PDF_OPTIONS, PdfEngine, type HtmlToPdf, type PdfEngineOptions, type PdfEngineStats } from './browser/pdf-engine.js';
export {
  CHROMIUM_FLAGS,
  chromiumInstallHint,
  chromiumLaunchOptions,
  DEBIAN_CHROMIUM_PATHS,
  resolveChromiumPath,
} from './browser/chromium.js';
export { processTreeMemory, type ProcessTreeMemory } from './browser/process-memory.js';
export { NFSE_CONSULTATION_URL, nfseConsultationUrl } from './nfse/danfse-html.js';
