// How a PDF goes out: its validators (ETag, revalidate always), 304 for a matching If-None-Match, else the bytes with
// the access key as the file name.
import type { GatewayResponse } from '../http/gateway-request.js';

/** Whether If-None-Match names `etag` (a list, weak or strong, or `*`). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

export function sendPdf(res: GatewayResponse, fileName: string, pdf: Buffer, etag: string, ifNoneMatch: string | undefined): void {
  res.setHeader('ETag', etag);
  // A cancellation or correction changes the document's version: clients revalidate (cheap, 304) every time.
  res.setHeader('Cache-Control', 'private, no-cache');
  if (matchesEtag(ifNoneMatch, etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/pdf');
  res.setHeader('Content-Length', pdf.length);
  res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
  res.end(pdf);
}
