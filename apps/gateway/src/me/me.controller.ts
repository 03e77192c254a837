import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentCaller } from '../auth/api-key.guard.js';
import type { Caller } from '../http/gateway-request.js';
import { ME_EXAMPLES } from '../openapi/account-examples.js';
import { ApiErrors, ApiResult } from '../openapi/decorators.js';

@ApiTags('account')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('api/v1/me')
export class MeController {
  @Get()
  @ApiOperation({ operationId: 'getMe', summary: 'The company and environment behind the API key (check a key)' })
  @ApiResult(200, 'The caller', 'Me', ME_EXAMPLES)
  @ApiErrors(401, 429)
  me(@CurrentCaller() caller: Caller) {
    return {
      company: { id: caller.company.id, tax_id: caller.company.taxId, name: caller.company.tradeName ?? caller.company.legalName },
      environment: caller.environment,
      api_key: { id: caller.apiKeyId, name: caller.apiKeyName, prefix: caller.apiKeyPrefix },
    };
  }
}
