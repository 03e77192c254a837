import { Controller, Get, HttpException, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentCaller } from '../auth/api-key.guard.js';
import { sendError } from '../http/error-envelope.js';
import type { Caller, GatewayRequest, GatewayResponse } from '../http/gateway-request.js';
import { ApiErrors } from '../openapi/decorators.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../http/pagination.js';
import { listReceived, parseReceivedQuery, receivedJson } from './list-received.js';
import { ReceivedListDocs, ReceivedSyncDocs, ReceivedXmlDocs } from './received-openapi.js';
import { ReceivedResources } from './received-resources.js';
import { requestSync } from './request-sync.js';

const ACCESS_KEY = /^(\d{44}|\d{50})$/;
const notFound = () => new HttpException({ detail: 'Received invoice not found' }, 404);

@ApiTags('received invoices')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('api/v1/received-invoices')
export class ReceivedController {
  constructor(private readonly resources: ReceivedResources) {}

  @Get()
  @ApiOperation({
    operationId: 'listReceivedInvoices',
    summary: 'Documents other companies issued against the company’s tax id, as collected',
    description:
      'Reads what received-sync collected (never the authorizer, never the authority’s query cap). Filters `document_type`, `issuer_tax_id`, ' +
      '`issued_from` / `issued_to`, `form` (summary or full), `situation`; pages like GET /invoices (`page`, `page_size` 1 to ' +
      `${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}). Each row: the issuer, amount, access key, whether the full XML is held, events.`,
  })
  @ReceivedListDocs()
  @ApiErrors(401, 429)
  async list(@CurrentCaller() caller: Caller, @Res() res: GatewayResponse, @Query() query: Record<string, unknown>) {
    const parsed = parseReceivedQuery(query);
    if (!parsed.ok) throw new HttpException({ detail: parsed.errors[0], errors: parsed.errors }, 422);
    const body = await listReceived(this.resources.reads, { companyId: caller.company.id, environment: caller.environment }, parsed.value);
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(receivedJson(body));
  }

  @Post('sync')
  @ApiOperation({
    operationId: 'syncReceivedInvoices',
    summary: 'Collect new received invoices now',
    description:
      'Queues one sync of the key’s company and environment and answers 202 with its job id; a sync already queued or running answers the ' +
      'same job id (never two at once). Companies with a certificate are also collected on a schedule (hourly by default). Inside the ' +
      'authority’s back-off: 429 with `Retry-After` and the authority’s reason.',
  })
  @ReceivedSyncDocs()
  @ApiErrors(401)
  async sync(@CurrentCaller() caller: Caller, @Req() req: GatewayRequest, @Res() res: GatewayResponse) {
    const answer = await requestSync(this.resources, { companyId: caller.company.id, environment: caller.environment });
    if (answer.status === 202) {
      res.statusCode = 202;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(JSON.stringify(answer.body));
      return;
    }
    if (answer.status === 429) res.setHeader('Retry-After', String(answer.retryAfterSeconds));
    sendError(req, res, answer.status, answer.detail);
  }

  @Get(':access_key/xml')
  @ApiOperation({
    operationId: 'getReceivedInvoiceXml',
    summary: 'The full XML of a received invoice (additive)',
    description: 'The signed document as the authority distributed it, when held in full; PostgreSQL only.',
  })
  @ReceivedXmlDocs()
  @ApiErrors(401, 429)
  async xml(@CurrentCaller() caller: Caller, @Res() res: GatewayResponse, @Param('access_key') accessKey: string) {
    if (!ACCESS_KEY.test(accessKey)) throw notFound();
    const held = await this.resources.reads.xml(caller.company.id, caller.environment, accessKey);
    if (!held || held.form !== 'full') throw notFound();
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/xml; charset=utf-8');
    res.end(held.xml);
  }
}
