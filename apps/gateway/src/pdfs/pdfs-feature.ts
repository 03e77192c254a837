// GET /invoices/{access_key}/pdf as the gateway module registers it (beside the invoices feature, whose resources it
// reads invoices through).
import type { Provider, Type } from '@nestjs/common';
import type { GatewayConfig } from '@talao/config';
import { createLogger } from '@talao/observability';
import { loadPdfsConfig } from './pdfs-config.js';
import { PdfsController } from './pdfs.controller.js';
import { PdfsResources } from './pdfs-resources.js';

export function pdfsFeature(config: GatewayConfig): { controllers: Type[]; providers: Provider[] } {
  return {
    controllers: [PdfsController],
    providers: [
      {
        provide: PdfsResources,
        useFactory: () => new PdfsResources(config, loadPdfsConfig(), createLogger({ name: 'gateway', level: config.logLevel })),
      },
    ],
  };
}
