// The description of the OpenAPI document: the parts of SPEC.md every operation shares (errors, limits, the record)
// and the decisions this service took where SPEC.md says "not shown". The tables are generated from the code that
// decides (the rate-limit table, the field error codes), so the document cannot drift from it.
import { FIELD_ERROR_CODES } from '@talao/fiscal-model';
import { OPERATIONS } from '../rate-limit/operations.js';

const ERRORS: ReadonlyArray<[status: number, meaning: string, when: string]> = [
  [
    400,
    'invalid configuration',
    'the issuer’s configuration (certificate, address, state or municipal registration, tax regime) is missing or invalid; `detail` is a string naming what',
  ],
  [401, 'unauthorized', 'token missing, expired, invalid, revoked, or made for another context (`sdk`); `WWW-Authenticate: Bearer`'],
  [
    402,
    'quota reached',
    'the company’s production quota of the month is reached and the plan has no overage price (trial); homologation never answers 402',
  ],
  [
    404,
    'not found',
    'no document with that access key or invoice_id belongs to the company behind the key (another company’s answers the same)',
  ],
  [
    409,
    'operation conflict',
    'the operation does not apply (reissue of an invoice that is not rejected or failed; a second reissue of one attempt, `detail.replaced_by` naming its replacement; a number already used); the same Idempotency-Key still in progress',
  ],
  [
    422,
    'validation error',
    'the body, a query parameter or a header failed validation: `detail` is the first field error `{ code, field, message, expected, received }` and `errors` lists them all; the same Idempotency-Key with a different body, an Idempotency-Key over 255 characters and malformed JSON have a string `detail`',
  ],
  [
    429,
    'rate limited',
    'too many calls for the key (or, without a valid key, the client IP) in the minute; `Retry-After` in seconds; `detail` is a string',
  ],
  [
    501,
    'not implemented',
    'signing for that document type is not implemented: `document_type` names a Brazilian fiscal document this service does not sign (nfce, cte, cteos, mdfe, nf3e, nfcom, bpe); every company is Brazilian, so no country answers 501',
  ],
  [
    502,
    'authorizer rejected',
    'the authorizer (SEFAZ or the national environment) rejected the document: `detail.message` is its own message, `detail.invoice_id` the attempt (look it up with /submissions, reissue it), `detail.code` (additive) its code',
  ],
];

const ADDITIVE_ANSWERS = [
  '`202` (POST /invoices, reissue): the outcome is still pending after the wait window; the body is the record with status `processing` and `Location` points at it.',
  '`503` (POST /invoices, reissue): the authorizer stayed unavailable through every retry; `detail` is `{ message, code, invoice_id, status: "failed" }` and the attempt can be reissued. Also `/readyz` when a dependency is down.',
  '`413` body over the limit (1 MiB by default), `415` a body that is not `application/json`.',
];

function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

function limitRows(): string[][] {
  return Object.entries(OPERATIONS).map(([name, definition]) => {
    const route =
      'route' in definition ? `${definition.route[0]} ${definition.route[1].replace(/:([a-z_]+)/g, '{$1}')}` : definition.description;
    return [`\`${name}\``, route, String(definition.perMinute)];
  });
}

export function apiDescription(): string {
  return [
    'Issue Brazilian electronic tax documents (NF-e, NFS-e Nacional). Authenticate with `Authorization: Bearer <api key>` (context `api`); ' +
      'the key decides the company and the environment (homologation or production). Every error answers `{ "detail": …, "request_id": … }`.',
    '## Invoice record',
    'POST /invoices (201, 202), reissue, the list’s `data`, the consult’s `invoice` and an Idempotency-Key replay answer the same record: ' +
      '`invoice_id`, `document_type`, `access_key` (absent for a rejected attempt, which has neither access key nor protocol, and for an NFS-e ' +
      'not yet authorized), `status` (`issued`, `rejected`, `cancelled`; additive `processing`, `failed`), `protocol` (null until authorized), ' +
      '`amount` (a JSON number written from the stored decimal, never through binary floating point). Additive: `total_amount` (the same ' +
      'total as a decimal string), `dps_id` (NFS-e), `series`, `number`, `environment`, `status_code`, `status_message`, `contingency`, ' +
      '`reissue_of`, `replaced_by` (the invoice that reissued this attempt: an attempt is reissued once), `issued_at`, `created_at`. ' +
      'Clients treat unknown fields as data.',
    '## Errors',
    table(
      ['HTTP', 'meaning', 'when'],
      ERRORS.map(([status, meaning, when]) => [String(status), meaning, when]),
    ),
    'Additive answers: ' + ADDITIVE_ANSWERS.join(' '),
    `Field error codes (\`detail.code\` of a validation error). Every one answers **422**, the item codes ITEM_TOTAL_MISMATCH, ITEM_AMOUNT_MISSING, ` +
      `ITEM_DISCOUNT_EXCEEDS_GROSS and ITEM_PRECISION_UNSUPPORTED included: ${FIELD_ERROR_CODES.map((code) => `\`${code}\``).join(', ')}.`,
    '## Limits',
    'Requests per minute per API key, each operation counted on its own, one key never spending another’s allowance (fixed one-minute windows). ' +
      'SPEC.md states create_invoice, reissue_invoice, get_invoice, cancel_invoice and list_invoices; the others are this service’s documented defaults, ' +
      'operations not available yet included. Every response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (epoch seconds); ' +
      'over the limit: 429 with `Retry-After` (seconds).',
    table(['operation', 'route (under /api/v1)', 'per minute'], limitRows()),
  ].join('\n\n');
}
