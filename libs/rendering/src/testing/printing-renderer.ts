// Test support: one warm DocumentRenderer for a spec file, and every PDF it prints opened for inspection. Not in the
// testing index: it registers Jest hooks, so only specs import it.
import { DocumentRenderer, type RenderOptions } from '../index.js';
import { PdfInspection } from './pdf-inspection.js';

/**
 * Starts a renderer (two pages) before the file's tests and closes it after them, with the PDFs it printed. Returns
 * `print`: the rendered document and its PDF, opened with the inspection tools.
 */
export function usePrintingRenderer() {
  let renderer: DocumentRenderer | undefined;
  const opened: PdfInspection[] = [];
  beforeAll(async () => {
    renderer = await DocumentRenderer.start({ pages: 2 });
  }, 60_000);
  afterAll(async () => {
    await renderer?.close();
    for (const pdf of opened) pdf.dispose();
  });
  return async function print(xml: string, options?: RenderOptions) {
    if (!renderer) throw new Error('the renderer runs only inside tests and hooks');
    const rendered = await renderer.render(xml, options);
    const pdf = new PdfInspection(rendered.pdf);
    opened.push(pdf);
    return { rendered, pdf };
  };
}

/** What render returns for the first version of an authorized document of one page. */
export function firstAuthorizedPage(documentType: 'nfe' | 'nfse', accessKey: string) {
  return { documentType, accessKey, pageCount: 1, version: 'r2.authorized', fileName: `${accessKey}.pdf` };
}
