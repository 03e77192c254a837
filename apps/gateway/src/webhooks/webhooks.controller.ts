// /api/v1/webhooks: register, list and delete endpoints, read the delivery log, redeliver. Everything is scoped to the
// company and environment of the API key; another company's ids answer 404 like ids that do not exist.
import { Body, Delete, Get, HttpCode, HttpException, Param, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { isUuid, WebhookEndpointLimitError } from '@talao/persistence';
import { enqueueJob } from '@talao/queue-contracts';
import { registerWebhook } from '@talao/webhooks';
import { CurrentCaller } from '../auth/api-key.guard.js';
import { ApiKeyController } from '../auth/authenticated-controllers.js';
import type { Caller } from '../http/gateway-request.js';
import { validQuery } from '../http/query-validation.js';
import { ApiErrors } from '../openapi/decorators.js';
import { deliveryPage, parseDeliveryQuery, presentEndpoint } from './webhook-json.js';
import {
  CreateWebhookDocs,
  DeleteWebhookDocs,
  ListDeliveriesDocs,
  ListWebhooksDocs,
  REGISTRATION_LIMITS,
  RetryDeliveryDocs,
} from './webhook-openapi.js';
import { WebhooksResources } from './webhooks-resources.js';

const scopeOf = (caller: Caller) => ({ companyId: caller.company.id, environment: caller.environment });

@ApiKeyController('webhooks', 'api/v1/webhooks')
export class WebhooksController {
  constructor(private readonly resources: WebhooksResources) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createWebhook', summary: 'Register a webhook endpoint', description: `Limits: ${REGISTRATION_LIMITS}` })
  @CreateWebhookDocs()
  @ApiErrors(409, 413, 415)
  async create(@CurrentCaller() caller: Caller, @Body() body: unknown) {
    try {
      const registered = await registerWebhook(
        { endpoints: this.resources.endpoints, policy: this.resources.policy },
        scopeOf(caller),
        body,
      );
      if (!registered.ok) throw new HttpException({ detail: registered.detail }, 422);
      return presentEndpoint(registered.endpoint);
    } catch (error) {
      if (error instanceof WebhookEndpointLimitError) throw new HttpException({ detail: error.message }, 409);
      throw error;
    }
  }

  @Get()
  @ApiOperation({ operationId: 'listWebhooks', summary: 'The registered webhook endpoints' })
  @ListWebhooksDocs()
  async list(@CurrentCaller() caller: Caller) {
    return { data: (await this.resources.endpoints.list(scopeOf(caller))).map(presentEndpoint) };
  }

  @Get('deliveries')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: 'The delivery log: every delivery with its attempts, the next try, and those given up on',
    description:
      'Filters `status` (pending, delivered, given_up, cancelled), `event`, `webhook_id`, `invoice_id`; pages with `page` and `page_size` like GET /invoices. ' +
      'A failed attempt is retried 6 times, after about 30 s, 2 min, 10 min, 1 h, 3 h and 6 h (±10%); then the delivery is `given_up`.',
  })
  @ListDeliveriesDocs()
  @ApiErrors(422)
  async deliveries(@CurrentCaller() caller: Caller, @Query() query: Record<string, unknown>) {
    const q = validQuery(parseDeliveryQuery(query));
    const { total, data } = await this.resources.deliveries.list({
      ...scopeOf(caller),
      ...(q.status ? { status: q.status } : {}),
      ...(q.event ? { event: q.event } : {}),
      ...(q.webhook_id ? { webhookId: q.webhook_id } : {}),
      ...(q.invoice_id ? { invoiceId: q.invoice_id } : {}),
      page: q.page,
      pageSize: q.page_size,
    });
    return deliveryPage(total, q, data);
  }

  @Post('deliveries/:id/retry')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'retryWebhookDelivery',
    summary: 'Redeliver now',
    description:
      'Additive. The next attempt is made now, with the same Service-Delivery-Id and body; a given-up delivery gets one more attempt.',
  })
  @RetryDeliveryDocs()
  async retry(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    const retry = isUuid(id) ? await this.resources.deliveries.requestRetry(scopeOf(caller), id) : null;
    if (!retry) throw new HttpException({ detail: 'Delivery not found' }, 404);
    // Redis away: the delivery is due in PostgreSQL, and the dispatcher's sweep sends it.
    await enqueueJob(
      { webhooks: this.resources.queue },
      {
        name: 'deliver-webhook',
        data: { deliveryId: retry.id, endpointId: retry.endpointId, attempt: retry.attempt, redrive: Date.now() },
      },
    ).catch(() => undefined);
    return { id: retry.id, status: 'pending', next_attempt_at: new Date().toISOString() };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteWebhook', summary: 'Delete a webhook endpoint' })
  @DeleteWebhookDocs()
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    const deleted = isUuid(id) && (await this.resources.endpoints.delete(scopeOf(caller), id));
    if (!deleted) throw new HttpException({ detail: 'Webhook not found' }, 404);
  }
}
