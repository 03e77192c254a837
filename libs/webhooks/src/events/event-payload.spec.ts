import fc from 'fast-check';
import { WEBHOOK_EVENTS } from './event-names.js';
import { InvalidAmountError, eventBody, jsonNumberToken, type WebhookEventInput, type WebhookEventPayload } from './event-payload.js';

const input = (
  over: Partial<WebhookEventInput['invoice']> = {},
  event: WebhookEventInput['event'] = 'invoice.authorized',
): WebhookEventInput => ({
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  event,
  createdAt: new Date('2026-11-25T12:00:00.123Z'),
  invoice: {
    invoiceId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    documentType: 'nfe',
    accessKey: '35261111222333000181550010000000011000000017',
    amount: '1500.00',
    ...over,
  },
});

describe('event payload', () => {
  it('is the SPEC.md shape plus id and created_at, as compact JSON', () => {
    expect(eventBody(input())).toBe(
      '{"id":"0f8fad5b-d9cb-469f-a165-70867728950e","event":"invoice.authorized","created_at":"2026-11-25T12:00:00.123Z",' +
        '"data":{"invoice_id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","document_type":"nfe",' +
        '"access_key":"35261111222333000181550010000000011000000017","status":"issued","amount":1500.00}}',
    );
  });

  it('says issued for an authorized or corrected document, and the outcome otherwise', () => {
    const statuses = Object.fromEntries(
      WEBHOOK_EVENTS.map((event) => [event, (JSON.parse(eventBody(input({}, event))) as WebhookEventPayload).data.status]),
    );
    expect(statuses).toEqual({
      'invoice.authorized': 'issued',
      'invoice.rejected': 'rejected',
      'invoice.cancelled': 'cancelled',
      'invoice.corrected': 'issued',
    });
  });

  it('writes the amount token from the decimal text, never through a float', () => {
    // 12345678901234567.89 as a JS number is 12345678901234568; 0.1 + 0.2 style drift must not appear either.
    for (const amount of ['12345678901234567.89', '9007199254740993.01', '0.10', '0.30', '1500.00', '0', '99999999999999999999999999.99']) {
      const body = eventBody(input({ amount }));
      expect(body).toContain(`"amount":${amount}}`);
      expect(() => JSON.parse(body)).not.toThrow();
    }
    expect(String(Number('12345678901234567.89'))).not.toBe('12345678901234567.89'); // why the text path matters
  });

  it('keeps any plain decimal exact, and the body stays valid JSON', () => {
    const decimal = fc
      .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.option(fc.stringMatching(/^\d{1,10}$/), { nil: undefined }))
      .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`);
    fc.assert(
      fc.property(decimal, (amount) => {
        const body = eventBody(input({ amount }));
        const token = /"amount":([^}]*)}/.exec(body)?.[1];
        return token === amount && (JSON.parse(body) as WebhookEventPayload).data.amount === Number(amount);
      }),
    );
  });

  it('refuses text that is not a plain decimal JSON number', () => {
    for (const amount of ['', '1e5', '01', '+1', '1.', '.5', 'NaN', 'Infinity', '1,50', ' 1', '1 ', '0x10', '1500.00}']) {
      expect(() => jsonNumberToken(amount)).toThrow(InvalidAmountError);
    }
  });

  it('escapes the strings it carries', () => {
    const body = eventBody(input({ accessKey: 'a"b\\c\u2028' }));
    expect((JSON.parse(body) as WebhookEventPayload).data.access_key).toBe('a"b\\c\u2028');
  });
});
