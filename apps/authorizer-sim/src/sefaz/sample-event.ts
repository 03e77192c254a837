// Test support for the signature verifiers' specs: one NF-e cancellation event with a fixed key and time, so each
// spec varies only what it is about (the justification's characters).
import { buildAccessKey } from '@talao/fiscal-model';
import { buildCancellationEvent } from '@talao/fiscal-xml';

export const SAMPLE_ISSUER_CNPJ = '11222333000181';

export function sampleCancellationEvent(justification: string): { xml: string; id: string } {
  return buildCancellationEvent({
    environment: 'homologation',
    author: { cnpj: SAMPLE_ISSUER_CNPJ },
    accessKey: buildAccessKey({
      cUF: '35',
      yearMonth: '2607',
      cnpjOrCpf: SAMPLE_ISSUER_CNPJ,
      model: '55',
      series: 1,
      number: 100,
      emissionType: 1,
      numericCode: '12345678',
    }),
    eventAt: new Date('2026-07-31T13:00:00Z'),
    utcOffset: '-03:00',
    protocol: '135260000000001',
    justification,
  });
}
