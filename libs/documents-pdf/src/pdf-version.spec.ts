import { pdfVersionOf, unprintableReason } from './pdf-version.js';

const at = new Date('2026-11-25T12:00:00.000Z');

describe('pdfVersionOf', () => {
  it('names the layout revision, the printed status and updated_at', () => {
    expect(pdfVersionOf({ status: 'issued', updatedAt: at })).toBe(`r1.authorized.${at.getTime().toString(36)}`);
    expect(pdfVersionOf({ status: 'cancelled', updatedAt: at })).toBe(`r1.cancelled.${at.getTime().toString(36)}`);
  });

  it('changes when the invoice row changes (a correction letter touches updated_at)', () => {
    const later = new Date(at.getTime() + 1);
    expect(pdfVersionOf({ status: 'issued', updatedAt: later })).not.toBe(pdfVersionOf({ status: 'issued', updatedAt: at }));
  });

  it('fits a BullMQ jobId and the render_pdf payload (no ":")', () => {
    expect(pdfVersionOf({ status: 'cancelled', updatedAt: at })).toMatch(/^[a-z0-9.-]{1,80}$/);
  });
});

describe('unprintableReason', () => {
  const xml = '<nfeProc/>';

  it('prints authorized and cancelled documents with their XML', () => {
    expect(unprintableReason({ status: 'issued', updatedAt: at, authorizedXml: xml })).toBeUndefined();
    expect(unprintableReason({ status: 'cancelled', updatedAt: at, authorizedXml: xml })).toBeUndefined();
  });

  it('says why the others have no PDF', () => {
    expect(unprintableReason({ status: 'rejected', updatedAt: at, authorizedXml: null })).toMatch(/not authorized \(status rejected\)/);
    expect(unprintableReason({ status: 'failed', updatedAt: at, authorizedXml: null })).toMatch(/status failed/);
    expect(unprintableReason({ status: 'processing', updatedAt: at, authorizedXml: null })).toMatch(/still being processed/);
    expect(unprintableReason({ status: 'issued', updatedAt: at, authorizedXml: null })).toMatch(/not stored/);
  });
});
