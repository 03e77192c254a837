// The amendments feature as the gateway module registers it: its controller and its resources (on top of the
// invoices feature's, which it injects).
import type { Provider, Type } from '@nestjs/common';
import type { GatewayConfig } from '@talao/config';
import { createLogger } from '@talao/observability';
import type { GatewayResources } from '../gateway-resources.js';
import { InvoicesResources } from '../invoices/invoices-resources.js';
import { AmendmentsController } from './amendments.controller.js';
import { AmendmentsResources } from './amendments-resources.js';
import { InvalidationsController } from './invalidations.controller.js';

export function amendmentsFeature(config: GatewayConfig, resources: GatewayResources): { controllers: Type[]; providers: Provider[] } {
  return {
    // Invalidations first: /invoices/invalidations must not be taken for an access key.
    controllers: [InvalidationsController, AmendmentsController],
    providers: [
      {
        provide: AmendmentsResources,
        inject: [InvoicesResources],
        useFactory: (invoices: InvoicesResources) =>
          new AmendmentsResources(config, resources, invoices, createLogger({ name: 'gateway', level: config.logLevel })),
      },
    ],
  };
}
