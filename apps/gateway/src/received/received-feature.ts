// The received-invoices feature as the gateway module registers it: its controller and its resources.
import type { Provider, Type } from '@nestjs/common';
import type { GatewayConfig } from '@talao/config';
import { createLogger } from '@talao/observability';
import type { GatewayResources } from '../gateway-resources.js';
import { ReceivedController } from './received.controller.js';
import { ReceivedResources } from './received-resources.js';

export function receivedFeature(config: GatewayConfig, resources: GatewayResources): { controllers: Type[]; providers: Provider[] } {
  return {
    controllers: [ReceivedController],
    providers: [
      {
        provide: ReceivedResources,
        useFactory: () => new ReceivedResources(config, resources, createLogger({ name: 'gateway', level: config.logLevel })),
      },
    ],
  };
}
