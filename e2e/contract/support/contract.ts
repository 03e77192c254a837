// What the contract suites share: the platform of e2e/issuance (simulator, issuer and gateway as processes, real
// PostgreSQL and Redis), request bodies built from the shared samples only (so a change of the request shape flows
// through: no literal body here), and small readers of the answers.
import { sampleNfeRequest, sampleNfseRequest } from '@talao/fiscal-model/testing';
import type { Platform, TestCompany } from '../../issuance/support/platform.js';

export { sampleNfeRequest };

type Json = Record<string, unknown>;

/**
 * The sample NFS-e for the e2e companies: their profile has no default cIndOp (the IBS/CBS operation indicator), so
 * every IBS/CBS group of the sample gets one, wherever the request shape puts the group.
 */
export function sampleNfse(): Json {
  const body = sampleNfseRequest();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node as Json)) {
      if (key === 'ibs_cbs' && typeof value === 'object' && value !== null) (value as Json)['operation_indicator'] ??= '100301';
      visit(value);
    }
  };
  visit(body);
  return body;
}

/** The sample NF-e with its first item changed (fields that sit on the item in every request shape: amount, description). */
export function nfeWithFirstItem(changes: Json): Json {
  const body = sampleNfeRequest();
  const items = body['items'] as Json[];
  items[0] = { ...items[0], ...changes };
  return body;
}

/** The sample NF-e without the unit price and amount of its first item (rule 1: send one of them). */
export function nfeWithoutItemValues(): Json {
  const body = sampleNfeRequest();
  const item = (body['items'] as Json[])[0]!;
  delete item['unit_price'];
  delete item['amount'];
  return body;
}

export interface Answer {
  status: number;
  body: Json;
  headers: Headers;
  /** The body as received: where a number token's digits matter (amount). */
  text: string;
}

/** Like Platform.api, but keeps the raw text. */
export async function call(
  p: Platform,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['authorization'] = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${p.gatewayUrl}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : {}, headers: response.headers, text };
}

export const issue = (p: Platform, company: TestCompany, body: Json = sampleNfeRequest(), headers?: Record<string, string>) =>
  call(p, 'POST', '/api/v1/invoices', { key: company.homologationKey, body, ...(headers ? { headers } : {}) });

/** A rejected NF-e (the simulator refuses the next document with cStat 778); its 502 answer. */
export async function rejectedNfe(p: Platform, company: TestCompany): Promise<Answer> {
  await p.sim.control('PUT', '/_control/faults/SP', { forceRejection: { code: '778', count: 1 } });
  const answer = await issue(p, company);
  if (answer.status !== 502) throw new Error(`expected a rejection, got ${answer.status}: ${answer.text}`);
  return answer;
}

export const invoiceIdOf = (rejection: Answer) => String((rejection.body['detail'] as Json)['invoice_id']);

/** SPEC.md "Invoice record": the fields every record carries, whatever its state. */
export const RECORD_FIELDS = ['invoice_id', 'document_type', 'status', 'protocol', 'amount'] as const;

/** The error envelope of a field error (422): `detail` the first error `{ code, field, message, expected, received }`, `errors` all. */
export function expectFieldErrorEnvelope(answer: Answer, code: string, field: string): void {
  expect(answer.status).toBe(422);
  const detail = answer.body['detail'] as Json;
  expect(Object.keys(detail).sort()).toEqual(['code', 'expected', 'field', 'message', 'received']);
  expect(detail).toMatchObject({ code, field, message: expect.any(String), expected: expect.any(String) });
  expect(answer.body['errors']).toEqual(expect.arrayContaining([detail]));
  expect(answer.body['request_id']).toBe(answer.headers.get('x-request-id'));
}
