import { pdfVersionOf, unprintableReason } from './pdf-version.js';

const at = new Date('2026-11-25T12:00:00.000Z');

describe('pdfVersionOf', () => {
  it('names the layout revision, the printed status and updated_at', () => {
    expect(pdfVersionOf({ status: 'issued', updatedAt: at })).toBe(`r2.authorized.${at.getTime().toString(36)}`);
    expect(pdfVersionOf({ status: 'cancelled', updatedAt: at })).toBe(`r2.cancelled.${at.getTime().toString(36)}`);
  });

  it('changes when the invoice row changes (a correction letter touches updated_at)', () => {
    const later = new Date(at.getTime() + 1);
    expect(pdfVersionOf({ status: 'issued', updatedAt: later })).not.toBe(pdfVersionOf({ status: 'issued', updatedAt: at }));
  });

  it('fits a BullMQ jobId and the render-pdf payload (no ":")', () => {
    expect(pdfVersionOf({ status: 'cancelled', updatedAt: at })).toMatch(/^[a-z0-9.-]{1,80}$/);
  });
});

describe('unprintableReason', () => {
  it('prints authorized and cancelled documents with their XML', () => {
    expect(unprintableReason({ status: 'issued', hasAuthorizedXml: true })).toBeUndefined();
    expect(unprintableReason({ status: 'cancelled', hasAuthorizedXml: true })).toBeUndefined();
  });

  it('says why the others have no PDF', () => {
    expect(unprintableReason({ status: 'rejected', hasAuthorizedXml: false })).toMatch(/not authorized \(status rejected\)/);
    expect(unprintableReason({ status: 'failed', hasAuthorizedXml: false })).toMatch(/status failed/);
    expect(unprintableReason({ status: 'processing', hasAuthorizedXml: false })).toMatch(/still being processed/);
    expect(unprintableReason({ status: 'issued', hasAuthorizedXml: false })).toMatch(/not stored/);
  });
});
