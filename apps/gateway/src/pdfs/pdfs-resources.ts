// What GET /invoices/{access_key}/pdf uses besides the invoices feature's resources: the pdf queue (producer), its job
// outcomes (to wait for a render), and the stored PDFs.
import type { OnApplicationShutdown } from '@nestjs/common';
import type { GatewayConfig } from '@talao/config';
import type { Logger } from '@talao/observability';
import { DocumentPdfsRepository } from '@talao/persistence';
import { QUEUE_NAMES } from '@talao/queue-contracts';
import type { GatewayResources } from '../gateway-resources.js';
import { QueueProducer } from '../queues/queue-producer.js';
import { PdfWaiter } from './pdf-waiter.js';
import type { PdfsConfig } from './pdfs-config.js';

export class PdfsResources implements OnApplicationShutdown {
  readonly pdfs: DocumentPdfsRepository;
  readonly waiter: PdfWaiter;
  private readonly producer: QueueProducer;

  constructor(
    gatewayConfig: GatewayConfig,
    readonly config: PdfsConfig,
    gateway: GatewayResources,
    logger: Logger,
  ) {
    this.producer = new QueueProducer(gatewayConfig, QUEUE_NAMES.pdf, logger);
    this.waiter = new PdfWaiter(this.producer.queue, this.producer.outcomes);
    this.pdfs = new DocumentPdfsRepository(gateway.prisma);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.producer.close();
  }
}
