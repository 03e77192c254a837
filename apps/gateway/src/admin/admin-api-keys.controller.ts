import { Controller, Delete, HttpCode, Param, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { revokeApiKey } from '@talao/company-admin';
import { AdminTokenGuard } from '../auth/admin-token.guard.js';
import { GatewayResources } from '../gateway-resources.js';
import { ApiErrors, ApiResult } from '../openapi/decorators.js';

@ApiTags('admin')
@ApiBearerAuth('admin-token')
@UseGuards(AdminTokenGuard)
@Controller('admin/v1/api-keys')
export class AdminApiKeysController {
  constructor(private readonly resources: GatewayResources) {}

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'adminRevokeApiKey', summary: 'Revoke an API key; it stops working at once' })
  @ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } })
  @ApiResult(204, 'Revoked')
  @ApiErrors(401, 404, 429)
  async revoke(@Param('id') id: string): Promise<void> {
    try {
      await revokeApiKey(this.resources.companyAdmin, id);
    } finally {
      // Accepted keys are cached for a few seconds: a revocation through this process takes effect at once.
      this.resources.configurationChanged();
    }
  }
}
