import { Get } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CurrentCaller } from '../auth/api-key.guard.js';
import { ApiKeyController } from '../auth/authenticated-controllers.js';
import type { Caller } from '../http/gateway-request.js';
import { ME_EXAMPLES } from '../openapi/account-examples.js';
import { ApiResult } from '../openapi/decorators.js';

@ApiKeyController('account', 'api/v1/me')
export class MeController {
  @Get()
  @ApiOperation({ operationId: 'getMe', summary: 'The company and environment behind the API key (check a key)' })
  @ApiResult(200, 'The caller', 'Me', ME_EXAMPLES)
  me(@CurrentCaller() caller: Caller) {
    return {
      company: { id: caller.company.id, tax_id: caller.company.taxId, name: caller.company.tradeName ?? caller.company.legalName },
      environment: caller.environment,
      api_key: { id: caller.apiKeyId, name: caller.apiKeyName, prefix: caller.apiKeyPrefix },
    };
  }
}
