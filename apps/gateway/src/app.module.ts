import { Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { GatewayConfig } from '@talao/config';
import { amendmentsFeature } from './amendments/amendments-feature.js';
import { AdminApiKeysController } from './admin/admin-api-keys.controller.js';
import { AdminCompaniesController } from './admin/admin-companies.controller.js';
import { AdminTokenGuard } from './auth/admin-token.guard.js';
import { ApiKeyGuard } from './auth/api-key.guard.js';
import { CompaniesController } from './companies/companies.controller.js';
import { GatewayResources } from './gateway-resources.js';
import { ADMIN_TOKEN, GATEWAY_CONFIG } from './gateway-tokens.js';
import { HealthController } from './health/health.controller.js';
import { invoicesFeature } from './invoices/invoices-feature.js';
import { MeController } from './me/me.controller.js';
import { webhooksFeature } from './webhooks/webhooks-feature.js';
import { pdfsFeature } from './pdfs/pdfs-feature.js';
import { receivedFeature } from './received/received-feature.js';

class ResourcesShutdown implements OnApplicationShutdown {
  constructor(private readonly resources: GatewayResources) {}

  async onApplicationShutdown(): Promise<void> {
    await this.resources.close();
  }
}

@Module({})
export class AppModule {
  /** The connections are made outside Nest (see gateway-app.ts) and handed in as values. */
  static forRoot(config: GatewayConfig, resources: GatewayResources): DynamicModule {
    const invoices = invoicesFeature(config, resources);
    const webhooks = webhooksFeature(config, resources);
    const pdfs = pdfsFeature(config);
    // Before the invoices' routes: its static paths (/invoices/invalidations) must win over /invoices/:access_key.
    const amendments = amendmentsFeature(config, resources);
    const received = receivedFeature(config, resources);
    return {
      module: AppModule,
      controllers: [
        HealthController,
        MeController,
        CompaniesController,
        AdminCompaniesController,
        AdminApiKeysController,
        ...amendments.controllers,
        ...invoices.controllers,
        ...webhooks.controllers,
        ...pdfs.controllers,
        ...received.controllers,
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: ADMIN_TOKEN, useValue: config.adminToken },
        { provide: GatewayResources, useValue: resources },
        { provide: ResourcesShutdown, useFactory: () => new ResourcesShutdown(resources) },
        ApiKeyGuard,
        AdminTokenGuard,
        ...invoices.providers,
        ...webhooks.providers,
        ...pdfs.providers,
        ...amendments.providers,
        ...received.providers,
      ],
    };
  }
}
