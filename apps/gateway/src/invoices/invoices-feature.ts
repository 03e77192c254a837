// The invoices feature as the gateway module registers it: its controller and its resources (built from the
// gateway's config and connections plus the feature's own environment variables, see invoices-config.ts).
import type { Provider, Type } from '@nestjs/common';
import type { GatewayConfig } from '@talao/config';
import { createLogger } from '@talao/observability';
import type { GatewayResources } from '../gateway-resources.js';
import { loadInvoicesConfig } from './invoices-config.js';
import { InvoicesController } from './invoices.controller.js';
import { InvoicesResources } from './invoices-resources.js';

export function invoicesFeature(config: GatewayConfig, resources: GatewayResources): { controllers: Type[]; providers: Provider[] } {
  return {
    controllers: [InvoicesController],
    providers: [
      {
        provide: InvoicesResources,
        useFactory: () =>
          new InvoicesResources(config, loadInvoicesConfig(), resources, createLogger({ name: 'gateway', level: config.logLevel })),
      },
    ],
  };
}
