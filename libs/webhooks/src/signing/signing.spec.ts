import fc from 'fast-check';
import { WEBHOOK_EVENTS } from '../events/event-names.js';
import { eventBody } from '../events/event-payload.js';
import { signatureHeader } from './sign.js';
import { verifyWebhookSignature } from './verify.js';

const secret = 'whsec_0123456789abcdef';
const t = 1_700_000_000;
const at = (seconds: number) => new Date(seconds * 1000);
const bodyOf = (event: (typeof WEBHOOK_EVENTS)[number]) =>
  eventBody({
    id: '0f8fad5b-d9cb-469f-a165-70867728950e',
    event,
    createdAt: at(t),
    invoice: {
      invoiceId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      documentType: 'nfse',
      accessKey: 'DPS355030811222333000181000010000000000000001',
      amount: '250.75',
    },
  });

describe('Service-Signature', () => {
  it('matches an HMAC-SHA256 computed independently (Python hmac) over "{t}.{body}"', () => {
    // python3 -c "import hmac,hashlib; print(hmac.new(b'whsec_0123456789abcdef', b'1700000000.{\"event\":\"invoice.authorized\"}', hashlib.sha256).hexdigest())"
    expect(signatureHeader({ secrets: secret, body: '{"event":"invoice.authorized"}', timestamp: t })).toBe(
      't=1700000000,v1=b3886d390f3e2b0e95d21c06d5f8d32a0579a905279ad10b56010af17b00fc08',
    );
  });

  it('is accepted by the reference verification for every event type', () => {
    for (const event of WEBHOOK_EVENTS) {
      const body = bodyOf(event);
      const header = signatureHeader({ secrets: secret, body, timestamp: t });
      expect(verifyWebhookSignature({ header, body, secrets: secret, now: at(t + 1) })).toEqual({ ok: true, timestamp: t });
      expect(verifyWebhookSignature({ header, body: Buffer.from(body), secrets: secret, now: at(t) }).ok).toBe(true);
    }
  });

  it('refuses a delivery replayed more than 300 s later, or stamped more than 300 s ahead', () => {
    const body = bodyOf('invoice.authorized');
    const header = signatureHeader({ secrets: secret, body, timestamp: t });
    expect(verifyWebhookSignature({ header, body, secrets: secret, now: at(t + 300) }).ok).toBe(true);
    expect(verifyWebhookSignature({ header, body, secrets: secret, now: at(t + 301) })).toMatchObject({
      ok: false,
      reason: 'timestamp_out_of_tolerance',
    });
    expect(verifyWebhookSignature({ header, body, secrets: secret, now: at(t - 301) })).toMatchObject({
      ok: false,
      reason: 'timestamp_out_of_tolerance',
    });
  });

  it('refuses a replay with a fresh t: the timestamp is part of what is signed', () => {
    const body = bodyOf('invoice.authorized');
    const captured = signatureHeader({ secrets: secret, body, timestamp: t });
    const restamped = captured.replace(`t=${t}`, `t=${t + 3600}`);
    expect(verifyWebhookSignature({ header: restamped, body, secrets: secret, now: at(t + 3600) })).toMatchObject({
      ok: false,
      reason: 'no_matching_signature',
    });
  });

  it('refuses a tampered body, a tampered signature and another secret', () => {
    const body = bodyOf('invoice.cancelled');
    const header = signatureHeader({ secrets: secret, body, timestamp: t });
    const now = at(t);
    expect(verifyWebhookSignature({ header, body: body.replace('250.75', '2507.5'), secrets: secret, now })).toMatchObject({
      reason: 'no_matching_signature',
    });
    expect(verifyWebhookSignature({ header, body: `${body} `, secrets: secret, now })).toMatchObject({ reason: 'no_matching_signature' });
    const flipped = header.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    expect(verifyWebhookSignature({ header: flipped, body, secrets: secret, now })).toMatchObject({ reason: 'no_matching_signature' });
    expect(verifyWebhookSignature({ header, body, secrets: 'another-secret-0123', now })).toMatchObject({
      reason: 'no_matching_signature',
    });
  });

  it('carries one v1 per secret during a rotation, and the verifier may hold several secrets', () => {
    const body = bodyOf('invoice.corrected');
    const both = signatureHeader({ secrets: ['old-secret-0123456', 'new-secret-0123456'], body, timestamp: t });
    expect(both.split(',')).toHaveLength(3);
    expect(verifyWebhookSignature({ header: both, body, secrets: 'new-secret-0123456', now: at(t) }).ok).toBe(true);
    expect(verifyWebhookSignature({ header: both, body, secrets: 'old-secret-0123456', now: at(t) }).ok).toBe(true);
    const oldOnly = signatureHeader({ secrets: 'old-secret-0123456', body, timestamp: t });
    expect(verifyWebhookSignature({ header: oldOnly, body, secrets: ['new-secret-0123456', 'old-secret-0123456'], now: at(t) }).ok).toBe(
      true,
    );
  });

  it('reads the header with spaces or tabs around elements, and skips other schemes and v1 values that cannot match', () => {
    const body = bodyOf('invoice.rejected');
    const v1 = signatureHeader({ secrets: secret, body, timestamp: t }).split(',')[1];
    expect(verifyWebhookSignature({ header: `t=${t}, v0=abc,\t${v1} , v2=zz,v1=xyz,v1=`, body, secrets: secret, now: at(t) }).ok).toBe(
      true,
    );
  });

  it('refuses malformed headers with a reason, without throwing', () => {
    const body = bodyOf('invoice.authorized');
    const v1 = `v1=${'ab'.repeat(32)}`;
    const cases: Array<[unknown, string]> = [
      [undefined, 'missing'],
      ['', 'missing'],
      [[`t=${t},${v1}`, `t=${t},${v1}`], 'malformed'],
      ['garbage', 'malformed'],
      [`${v1}`, 'malformed'],
      [`t=${t}`, 'malformed'],
      [`t=${t},t=${t},${v1}`, 'malformed'],
      [`t=abc,${v1}`, 'malformed'],
      [`t=-5,${v1}`, 'malformed'],
      [`t=1234567890123,${v1}`, 'malformed'],
      [`t=${t},v1=xyz`, 'malformed'],
      [`t=${t},v1=abc`, 'malformed'],
      [`t=${t},v1=`, 'malformed'],
      [`t=${t},=${'a'.repeat(64)}`, 'malformed'],
      [`t=${t},v1=abcd`, 'malformed'],
      [`t=${t},${v1},x=${'a'.repeat(1100)}`, 'malformed'],
      [`t=${t},${Array(14).fill(v1).join(',')}`, 'no_matching_signature'],
    ];
    for (const [header, reason] of cases) {
      const result = verifyWebhookSignature({ header: header as string, body, secrets: secret, now: at(t) });
      expect({ header, result: result.ok ? 'ok' : result.reason }).toEqual({ header, result: reason });
    }
  });

  it('never throws on an arbitrary header', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), (header) => {
        const result = verifyWebhookSignature({ header, body: '{}', secrets: secret, now: at(t) });
        return result.ok === false;
      }),
    );
  });
});
