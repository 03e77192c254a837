// "One contract, three places": every example of the OpenAPI document the running gateway serves is sent to it, and
// must answer the status documented with it. A request example (the body example, or the parameter examples of one
// name) goes with the response example of the same name (apps/gateway/src/invoices/invoice-examples.ts); an operation
// with no request examples is called once as documented and must answer its 2xx. Placeholders stand for the caller's
// own documents: each is replaced by a real one of the kind it names (an issued NF-e, a rejected attempt, the
// company), everything else is sent exactly as the document writes it.
import { jest } from '@jest/globals';
import { startPlatform, type TestCompany } from '../issuance/support/platform.js';
import { call, invoiceIdOf, issue, rejectedNfe } from './support/contract.js';
import { startedForFile } from '../support/started-for-file.js';

jest.setTimeout(180_000);

type Json = Record<string, unknown>;
interface Example {
  value: unknown;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  examples?: Record<string, Example>;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: { 'application/json': { examples?: Record<string, Example> } } };
  responses: Record<string, { content?: { 'application/json'?: { schema?: Json; examples?: Record<string, Example> } } }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
}

// The canceller too: the amendment routes' examples are answered by it.
const p = startedForFile('platform', () => startPlatform('contract-openapi', { canceller: true }));
let company: TestCompany;
let placeholders: Map<string, string>;

beforeAll(async () => {
  company = await p.createCompany();
  const issued = await issue(p, company);
  if (issued.status !== 201) throw new Error(`fixture: ${issued.status} ${issued.text}`);
  const rejected = invoiceIdOf(await rejectedNfe(p, company));
  await p.sim.control('DELETE', '/_control/faults');
  // The document names its placeholder ids (x-example-placeholders): the test reads them as a client would.
  const served = (await call(p, 'GET', '/api/v1/openapi.json')).body as unknown as { 'x-example-placeholders': Record<string, string> };
  const EXAMPLE_IDS = served['x-example-placeholders'];
  placeholders = new Map<string, string>([
    [EXAMPLE_IDS['issuedInvoiceId']!, String(issued.body['invoice_id'])],
    [EXAMPLE_IDS['issuedAccessKey']!, String(issued.body['access_key'])],
    [EXAMPLE_IDS['rejectedInvoiceId']!, rejected],
    [EXAMPLE_IDS['companyId']!, company.id],
  ]);
});

const namesOf = (operation: Operation): string[] => {
  const names = new Set<string>();
  for (const parameter of operation.parameters ?? []) for (const name of Object.keys(parameter.examples ?? {})) names.add(name);
  for (const name of Object.keys(operation.requestBody?.content['application/json'].examples ?? {})) names.add(name);
  return [...names];
};

const resolve = (document: Document, schema: Json | undefined): Json | undefined => {
  const ref = schema?.['$ref'];
  return typeof ref === 'string' ? document.components.schemas[ref.split('/').at(-1)!] : schema;
};

interface Case {
  operation: Operation;
  method: string;
  path: string;
  name: string | null;
}

/** The request a case describes, the status documented for it and its response example. */
function requestOf(c: Case): { url: string; body?: unknown; expected: string[]; example?: unknown } {
  const { operation, name } = c;
  let path = c.path;
  const query = new URLSearchParams();
  for (const parameter of operation.parameters ?? []) {
    const example = name === null ? undefined : parameter.examples?.[name];
    if (!example) {
      if (parameter.in === 'path') throw new Error(`${operation.operationId}: path parameter ${parameter.name} has no example "${name}"`);
      continue;
    }
    const value = String(example.value);
    const sent = placeholders.get(value) ?? value;
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(sent));
    else if (parameter.in === 'query') query.append(parameter.name, sent);
  }
  const bodyExample = name === null ? undefined : operation.requestBody?.content['application/json'].examples?.[name];
  const responses = Object.entries(operation.responses);
  const documented =
    name === null
      ? responses.filter(([status]) => status.startsWith('2'))
      : responses.filter(([, response]) => response.content?.['application/json']?.examples?.[name] !== undefined);
  const example = name === null ? undefined : documented[0]?.[1].content?.['application/json']?.examples?.[name]?.value;
  return {
    url: `${path}${query.size > 0 ? `?${query.toString()}` : ''}`,
    ...(bodyExample ? { body: bodyExample.value } : {}),
    expected: documented.map(([status]) => status),
    ...(example !== undefined ? { example } : {}),
  };
}

describe('OpenAPI examples', () => {
  it('every /api/v1 operation has examples, and every example answers the status documented with it', async () => {
    const document = (await call(p, 'GET', '/api/v1/openapi.json')).body as unknown as Document;
    const cases: Case[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      if (!path.startsWith('/api/v1/')) continue;
      for (const [method, operation] of Object.entries(methods)) {
        const names = namesOf(operation);
        const hasResponseExample = Object.values(operation.responses).some(
          (r) => Object.keys(r.content?.['application/json']?.examples ?? {}).length > 0,
        );
        if (!hasResponseExample) throw new Error(`${operation.operationId} documents no example`);
        if (names.length === 0) cases.push({ operation, method, path, name: null });
        for (const name of names) cases.push({ operation, method, path, name });
      }
    }
    // SPEC.md's endpoints that exist today, and the account routes.
    expect(new Set(cases.map((c) => c.operation.operationId))).toEqual(
      new Set([
        'createInvoice',
        'listInvoices',
        'getInvoice',
        'getInvoicePdf',
        'reissueInvoice',
        'listSubmissions',
        'getMe',
        'getCompany',
        'createWebhook',
        'listWebhooks',
        'deleteWebhook',
        'listWebhookDeliveries',
        'retryWebhookDelivery',
        'cancelInvoice',
        'correctInvoice',
        'invalidateNumbering',
        'listInvalidations',
        'listReceivedInvoices',
        'syncReceivedInvoices',
        'getReceivedInvoiceXml',
        'manifestReceivedInvoice',
      ]),
    );

    const failures: string[] = [];
    for (const c of cases) {
      const label = `${c.operation.operationId}[${c.name ?? '-'}]`;
      const request = requestOf(c);
      if (request.expected.length !== 1) {
        failures.push(`${label}: documented with ${request.expected.length} statuses (${request.expected.join(', ')})`);
        continue;
      }
      const answer = await call(p, c.method.toUpperCase(), request.url, {
        key: company.homologationKey,
        ...(request.body !== undefined ? { body: request.body } : {}),
      });
      const expected = Number(request.expected[0]);
      if (answer.status !== expected) {
        failures.push(
          `${label}: ${c.method.toUpperCase()} ${request.url} answered ${answer.status}, documented ${expected}: ${answer.text.slice(0, 300)}`,
        );
        continue;
      }
      const example = request.example as Json | undefined;
      const code = (example?.['detail'] as Json | undefined)?.['code'];
      if (code !== undefined && (answer.body['detail'] as Json | undefined)?.['code'] !== code) {
        failures.push(`${label}: detail.code ${String((answer.body['detail'] as Json | undefined)?.['code'])}, documented ${String(code)}`);
      }
      if (expected < 300) {
        // The example shows no field the answer lacks, and the answer has no field its schema does not describe.
        const missing = Object.keys(example ?? {}).filter((field) => !(field in answer.body));
        const schema = resolve(document, c.operation.responses[String(expected)]?.content?.['application/json']?.schema);
        const described = schema?.['properties'] ? Object.keys(schema['properties'] as Json) : Object.keys(answer.body);
        const undocumented = Object.keys(answer.body).filter((field) => !described.includes(field));
        if (missing.length > 0 || undocumented.length > 0)
          failures.push(`${label}: example fields missing ${missing.join(',')}; undocumented ${undocumented.join(',')}`);
      }
    }
    expect(failures).toEqual([]);
    // Every operation, at least one case each, and the error examples of POST /invoices among them.
    expect(cases.filter((c) => c.operation.operationId === 'createInvoice').map((c) => c.name)).toEqual(
      expect.arrayContaining(['nfe', 'nfse', 'item_total_mismatch', 'not_implemented']),
    );
  });
});
