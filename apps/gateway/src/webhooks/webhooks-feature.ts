// The webhooks feature as the gateway module registers it: its controller and its resources.
import type { Provider, Type } from '@nestjs/common';
import type { GatewayConfig } from '@talao/config';
import type { GatewayResources } from '../gateway-resources.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksResources } from './webhooks-resources.js';

export function webhooksFeature(config: GatewayConfig, resources: GatewayResources): { controllers: Type[]; providers: Provider[] } {
  return {
    controllers: [WebhooksController],
    providers: [{ provide: WebhooksResources, useFactory: () => new WebhooksResources(config, resources) }],
  };
}
