import type { AmendmentRecord } from '@talao/persistence';
import { latestCorrection } from './render-pdf-job.js';

const letter = (sequence: number, status: AmendmentRecord['status'], kind: AmendmentRecord['kind'] = 'correction'): AmendmentRecord => ({
  id: `a${sequence}`,
  companyId: 'c',
  environment: 'homologation',
  invoiceId: 'i',
  kind,
  sequence,
  text: `carta ${sequence}`,
  status,
  protocol: status === 'registered' ? `13526000000000${sequence}` : null,
  statusCode: null,
  statusMessage: null,
  registeredAt: status === 'registered' ? new Date('2026-11-25T12:00:00Z') : null,
  createdAt: new Date('2026-11-25T11:00:00Z'),
});

describe('latestCorrection', () => {
  it('is the registered letter with the highest sequence (each replaces the previous); pending, refused and cancellations do not count', () => {
    expect(latestCorrection([letter(1, 'registered'), letter(3, 'rejected'), letter(2, 'registered'), letter(4, 'pending')])).toEqual({
      sequence: 2,
      text: 'carta 2',
      protocol: '135260000000002',
      registeredAt: '2026-11-25T12:00:00.000Z',
    });
    expect(latestCorrection([letter(1, 'registered', 'cancellation')])).toBeUndefined();
    expect(latestCorrection([])).toBeUndefined();
  });
});
