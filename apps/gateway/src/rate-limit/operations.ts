// One table of rate-limited operations: requests per minute, per API key (or per client IP where no key applies).
// Each limit is overridable with RATE_LIMIT_<NAME> (e.g. RATE_LIMIT_CREATE_INVOICE=5). Routes are SPEC.md's endpoint
// table (those that do not exist yet included, so their limits are decided in one place, not route by route as they
// arrive); the five limits SPEC.md states are its values. Order matters: a request counts against the first row that
// matches it.

export const WINDOW_SECONDS = 60;

interface OperationDefinition {
  /** Requests per minute. */
  readonly perMinute: number;
  /** METHOD and path under /api/v1, `:name` matching one segment; absent for the catch-all operations below. */
  readonly route?: readonly [method: string, path: string];
  readonly description: string;
}

/** A routed operation's row, its route written as SPEC.md's endpoint table writes it ("POST /invoices/:invoice_id/reissue"). */
function operation(perMinute: number, route: `${string} /${string}`, description: string) {
  const [method, path] = route.split(' ') as [string, string];
  return { perMinute, route: [method, path] as const, description };
}

export const OPERATIONS = {
  // SPEC.md "Limits": these five are the contract.
  create_invoice: operation(60, 'POST /invoices', 'issue an NF-e or NFS-e (produces a document, consumes credit)'),
  reissue_invoice: operation(60, 'POST /invoices/:invoice_id/reissue', 'reissue a rejected or failed attempt'),
  // Before get_invoice: the first row that matches counts, and /invoices/invalidations would also match /invoices/:access_key.
  invalidate_numbering: operation(30, 'POST /invoices/invalidations', 'invalidate an NF-e numbering range'),
  list_invalidations: operation(300, 'GET /invoices/invalidations', 'numbering ranges already invalidated'),
  get_invoice: operation(120, 'GET /invoices/:access_key', 'consult one invoice at the authorizer'),
  cancel_invoice: operation(120, 'POST /invoices/:access_key/cancel', 'cancel an invoice'),
  list_invoices: operation(600, 'GET /invoices', 'list invoices'),
  // Not stated by SPEC.md: the defaults this service documents (README, OpenAPI), for the operations of later issues too.
  correct_invoice: operation(60, 'POST /invoices/:access_key/correction', 'correction letter (CC-e), NF-e only'),
  get_invoice_pdf: operation(120, 'GET /invoices/:access_key/pdf', 'DANFE / DANFSe (rendered, or fetched from the authorizer)'),
  list_submissions: operation(300, 'GET /invoices/:invoice_id/submissions', 'submission history of an attempt'),
  list_received_invoices: operation(300, 'GET /received-invoices', 'documents received (already collected data)'),
  // The authorizer caps distribution queries per tax id; the service collects on a schedule, so a manual sync is rare.
  sync_received_invoices: operation(6, 'POST /received-invoices/sync', 'fetch new received invoices from the authorizer'),
  get_received_invoice_xml: operation(
    300,
    'GET /received-invoices/:access_key/xml',
    'the full XML of a received invoice, when collected (additive)',
  ),
  manifest_received_invoice: operation(60, 'POST /received-invoices/:access_key/manifestation', 'recipient manifestation'),
  create_webhook: operation(30, 'POST /webhooks', 'register a webhook endpoint'),
  list_webhooks: operation(300, 'GET /webhooks', 'registered webhook endpoints'),
  list_webhook_deliveries: operation(300, 'GET /webhooks/deliveries', 'delivery history, given-up deliveries included'),
  delete_webhook: operation(30, 'DELETE /webhooks/:id', 'remove a webhook endpoint'),
  retry_webhook_delivery: operation(60, 'POST /webhooks/deliveries/:id/retry', 'send a delivery again'),
  get_me: operation(300, 'GET /me', 'the company and environment behind the key'),
  get_company: operation(300, 'GET /companies/:company_id', "the caller's company profile"),
  /** Any other authenticated request (routes added later without their own row). */
  default: { perMinute: 300, description: 'any other authenticated request' },
  /** Requests without a valid API key, per client IP: bounds key guessing and anonymous load. */
  unauthenticated: { perMinute: 60, description: 'requests without a valid API key, per client IP' },
  /** The OpenAPI document and docs page (several assets per page view), per client IP. */
  public_docs: { perMinute: 300, description: 'OpenAPI document and docs page, per client IP' },
  /** The admin API, per client IP: bounds admin-token guessing. */
  admin: { perMinute: 600, description: 'admin API, per client IP' },
} as const satisfies Record<string, OperationDefinition>;

export type OperationName = keyof typeof OPERATIONS;

export class UnknownRateLimitError extends Error {}

/** The effective limits: the table, with RATE_LIMIT_<NAME> overrides; an unknown name fails the boot. */
export function effectiveLimits(overrides: Readonly<Record<string, number>>): Record<OperationName, number> {
  const unknown = Object.keys(overrides).filter((name) => !(name in OPERATIONS));
  if (unknown.length > 0) {
    throw new UnknownRateLimitError(
      `Unknown rate limit ${unknown.map((n) => `RATE_LIMIT_${n.toUpperCase()}`).join(', ')}; known: ${Object.keys(OPERATIONS)
        .map((n) => `RATE_LIMIT_${n.toUpperCase()}`)
        .join(', ')}`,
    );
  }
  const limits = {} as Record<OperationName, number>;
  for (const [name, definition] of Object.entries(OPERATIONS) as [OperationName, OperationDefinition][]) {
    limits[name] = overrides[name] ?? definition.perMinute;
  }
  return limits;
}

const routed = (Object.entries(OPERATIONS) as [OperationName, OperationDefinition][])
  .filter(([, d]) => d.route)
  .map(([name, d]) => ({ name, method: d.route![0], segments: d.route![1].split('/').filter(Boolean) }));

/**
 * The operation for an authenticated request; `path` is relative to /api/v1 ("/invoices/abc"). Matches as the
 * router does, so a route and its allowance always agree: segments compared case-sensitively and undecoded, one
 * trailing slash ignored, an empty segment ("//") matching nothing, HEAD answered by the GET route.
 */
export function operationFor(method: string, path: string): OperationName {
  const trimmed = path.startsWith('/') ? path.slice(1) : path;
  const segments = (trimmed.endsWith('/') ? trimmed.slice(0, -1) : trimmed).split('/');
  if (segments.some((segment) => segment === '')) return 'default';
  const verb = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  const match = routed.find(
    (op) =>
      op.method === verb && op.segments.length === segments.length && op.segments.every((s, i) => s.startsWith(':') || s === segments[i]),
  );
  return match?.name ?? 'default';
}
