// What GET /invoices/{access_key}/pdf uses besides the invoices feature's resources (which hold the stored PDFs): the
// pdf queue (producer) and its job outcomes (to wait for a render).
import type { OnApplicationShutdown } from '@nestjs/common';
import type { GatewayConfig } from '@talao/config';
import type { Logger } from '@talao/observability';
import { QUEUE_NAMES } from '@talao/queue-contracts';
import { QueueProducer } from '../queues/queue-producer.js';
import { PdfWaiter } from './pdf-waiter.js';
import type { PdfsConfig } from './pdfs-config.js';

export class PdfsResources implements OnApplicationShutdown {
  readonly waiter: PdfWaiter;
  private readonly producer: QueueProducer;

  constructor(
    gatewayConfig: GatewayConfig,
    readonly config: PdfsConfig,
    logger: Logger,
  ) {
    this.producer = new QueueProducer(gatewayConfig, QUEUE_NAMES.pdf, logger);
    this.waiter = new PdfWaiter(this.producer.queue, this.producer.outcomes);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.producer.close();
  }
}
