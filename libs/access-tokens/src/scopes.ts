// SPEC.md Authentication 8: the four OAuth scopes, in the words the consent page shows, and what each one covers on
// the REST API (by the gateway's operation names, rate-limit/operations.ts) and on the MCP app (by tool name). One
// table for both sides, so the MCP app's call-time check and the API's refusal can never disagree.

export const SCOPES = ['invoice:read', 'invoice:issue', 'invoice:cancel', 'invoice:write'] as const;
export type Scope = (typeof SCOPES)[number];

/** Plain words for the consent page. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = {
  'invoice:read': 'Read your invoices: consult, list, download PDFs, read submission history and received invoices',
  'invoice:issue': 'Issue and reissue invoices (this produces fiscal documents and consumes plan credit)',
  'invoice:cancel': 'Cancel issued invoices and invalidate NF-e numbering ranges',
  'invoice:write': 'File correction letters (CC-e) and answer received invoices (manifestation)',
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * REST operations (gateway rate-limit rows) and the scope an OAuth access token needs for them. `null`: any valid
 * token (who am I, my company). An operation absent from this table (webhooks, anything added later) is refused to
 * OAuth tokens: no scope of SPEC.md covers it, and least privilege means a new route is closed until it is listed.
 */
export const OPERATION_SCOPES: Readonly<Record<string, Scope | null>> = {
  create_invoice: 'invoice:issue',
  reissue_invoice: 'invoice:issue',
  cancel_invoice: 'invoice:cancel',
  invalidate_numbering: 'invoice:cancel',
  correct_invoice: 'invoice:write',
  manifest_received_invoice: 'invoice:write',
  get_invoice: 'invoice:read',
  list_invoices: 'invoice:read',
  list_invalidations: 'invoice:read',
  get_invoice_pdf: 'invoice:read',
  list_submissions: 'invoice:read',
  list_received_invoices: 'invoice:read',
  get_received_invoice_xml: 'invoice:read',
  // Collecting received invoices reads the company's own documents; it spends authorizer quota, not fiscal effect.
  sync_received_invoices: 'invoice:read',
  get_me: null,
  get_company: null,
};

/** SPEC.md's tool table: the scope each MCP tool needs (`null`: none, validate_invoice_payload never calls the API). */
export const TOOL_SCOPES: Readonly<Record<string, Scope | null>> = {
  issue_invoice: 'invoice:issue',
  reissue_invoice: 'invoice:issue',
  cancel_invoice: 'invoice:cancel',
  correct_invoice: 'invoice:write',
  invalidate_numbering: 'invoice:cancel',
  manifest_received_invoice: 'invoice:write',
  consult_invoice: 'invoice:read',
  list_invoices: 'invoice:read',
  get_invoice_pdf: 'invoice:read',
  get_invoice_submissions: 'invoice:read',
  list_received_invoices: 'invoice:read',
  validate_invoice_payload: null,
};

/** The scopes of a token's space-separated `scope` claim that SPEC.md defines (others are ignored). */
export function parseScopes(claim: unknown): ReadonlySet<Scope> {
  if (typeof claim !== 'string') return new Set();
  return new Set(claim.split(' ').filter(isScope));
}
