// @talao/documents-pdf: the printed documents as a use case — the `render-pdf` job of apps/pdf-renderer and its
// dependencies. The pure half (an invoice's PDF version, whether it has one) is `@talao/documents-pdf/version`.
export { runRenderPdfJob, type RenderPdfDependencies } from './render-pdf-job.js';
export { createPdfWorkerDependencies, type PdfWorkerDependencies, type PdfWorkerSettings } from './worker-dependencies.js';
export { pdfVersionOf, printedStatus, unprintableReason, type PrintableInvoice } from './pdf-version.js';
export { renderOnAuthorization, type RenderOnAuthorizationDependencies } from './render-on-authorization.js';
