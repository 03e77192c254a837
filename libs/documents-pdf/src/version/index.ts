// `@talao/documents-pdf/version`: which invoices have a PDF and its current version, without the renderer (the gateway).
export { pdfVersionOf, printedStatus, unprintableReason, type PrintableInvoice } from '../pdf-version.js';
