import { Body, Get, HttpException, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CurrentCaller } from '../auth/api-key.guard.js';
import { ApiKeyController } from '../auth/authenticated-controllers.js';
import { sendError } from '../http/error-envelope.js';
import type { Caller, GatewayRequest, GatewayResponse } from '../http/gateway-request.js';
import { sendJson } from '../http/json-answer.js';
import { validQuery } from '../http/query-validation.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../http/pagination.js';
import { listReceived, parseReceivedQuery, receivedJson } from './list-received.js';
import { ManifestationDocs, ReceivedListDocs, ReceivedSyncDocs, ReceivedXmlDocs } from './received-openapi.js';
import { fileManifestation } from './file-manifestation.js';
import { ReceivedResources } from './received-resources.js';
import { requestSync } from './request-sync.js';

const ACCESS_KEY = /^(\d{44}|\d{50})$/;
const notFound = () => new HttpException({ detail: 'Received invoice not found' }, 404);

@ApiKeyController('received invoices', 'api/v1/received-invoices')
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
  async list(@CurrentCaller() caller: Caller, @Res() res: GatewayResponse, @Query() query: Record<string, unknown>) {
    const parsed = validQuery(parseReceivedQuery(query));
    const body = await listReceived(this.resources.reads, { companyId: caller.company.id, environment: caller.environment }, parsed);
    sendJson(res, 200, body, receivedJson);
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
  async sync(@CurrentCaller() caller: Caller, @Req() req: GatewayRequest, @Res() res: GatewayResponse) {
    const answer = await requestSync(this.resources, { companyId: caller.company.id, environment: caller.environment });
    if (answer.status === 202) {
      sendJson(res, 202, answer.body);
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
  async xml(@CurrentCaller() caller: Caller, @Res() res: GatewayResponse, @Param('access_key') accessKey: string) {
    if (!ACCESS_KEY.test(accessKey)) throw notFound();
    const held = await this.resources.reads.xml(caller.company.id, caller.environment, accessKey);
    if (!held) throw notFound();
    // Still 404, as documented, but saying why: the document is listed, its full XML is not held yet.
    if (held.form !== 'full')
      throw new HttpException(
        {
          detail:
            'Only the summary of this received invoice is held: its full XML comes after awareness (210210), confirmation (210200) or operation not performed (210240)',
        },
        404,
      );
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/xml; charset=utf-8');
    res.end(held.xml);
  }

  @Post(':access_key/manifestation')
  @ApiOperation({
    operationId: 'manifestReceivedInvoice',
    summary: 'File the company’s manifestation on a received NF-e (manifestação do destinatário)',
    description:
      'Body `manifestation`: 210210 awareness (ciência; within 10 days of authorization), 210200 confirmation, 210220 unknown operation, ' +
      '210240 operation not performed (conclusive; within 90 days of authorization for NF-e authorized from 2026-06-01, 180 days before). ' +
      '`justification` only and required for 210240, 15 to 255 characters. Every rule of the authority is checked first and a refusal ' +
      'answers 409 with the authority’s own code and message in `detail` (596 out of the deadline, 655 awareness after a conclusive event, ' +
      '573 a third conclusive event or a repeated awareness, 650/651 on a cancelled NF-e) without contacting it; a conclusive event may be ' +
      'corrected once within 30 days. The event is signed with the company’s certificate and filed at the national environment by ' +
      'received-sync; waits for the decision within MANIFESTATION_WAIT_MS: 200 registered, 502 refused (the authorizer’s message), 202 ' +
      'still pending. After awareness, confirmation or operation-not-performed the full XML is fetched and GET …/xml serves it. NF-e ' +
      'only (409 NFE_ONLY on an NFS-e).',
  })
  @ManifestationDocs()
  async manifest(
    @CurrentCaller() caller: Caller,
    @Req() req: GatewayRequest,
    @Res() res: GatewayResponse,
    @Param('access_key') accessKey: string,
    @Body() body: unknown,
  ) {
    const answer = await fileManifestation(this.resources, {
      companyId: caller.company.id,
      environment: caller.environment,
      accessKey,
      body,
    });
    if (answer.status >= 400) {
      sendError(req, res, answer.status, answer.body['detail'] as string | object);
      return;
    }
    sendJson(res, answer.status, answer.body);
  }
}
