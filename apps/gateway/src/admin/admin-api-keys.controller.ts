import { Delete, HttpCode, Param } from '@nestjs/common';
import { ApiOperation, ApiParam } from '@nestjs/swagger';
import { revokeApiKey } from '@talao/company-admin';
import { AdminController } from '../auth/authenticated-controllers.js';
import { GatewayResources } from '../gateway-resources.js';
import { ApiErrors, ApiResult } from '../openapi/decorators.js';

@AdminController('admin/v1/api-keys')
export class AdminApiKeysController {
  constructor(private readonly resources: GatewayResources) {}

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'adminRevokeApiKey', summary: 'Revoke an API key; it stops working at once' })
  @ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } })
  @ApiResult(204, 'Revoked')
  @ApiErrors(404)
  async revoke(@Param('id') id: string): Promise<void> {
    try {
      await revokeApiKey(this.resources.companyAdmin, id);
    } finally {
      // Accepted keys are cached for a few seconds: a revocation through this process takes effect at once.
      this.resources.configurationChanged();
    }
  }
}
