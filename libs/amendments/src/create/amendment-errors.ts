// A request refused before anything is stored or sent: the HTTP status and the `detail` the gateway answers.
export class AmendmentRefused extends Error {
  override readonly name = 'AmendmentRefused';

  constructor(
    readonly status: 404 | 409 | 422,
    readonly detail: string | Record<string, unknown>,
  ) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
  }
}

export const invoiceNotFound = () => new AmendmentRefused(404, 'Invoice not found');
