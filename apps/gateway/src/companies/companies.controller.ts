import { Get, HttpException, Param } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse } from '@nestjs/swagger';
import { presentCompany } from '@talao/company-admin';
import { CurrentCaller } from '../auth/api-key.guard.js';
import { ApiKeyController } from '../auth/authenticated-controllers.js';
import { GatewayResources } from '../gateway-resources.js';
import type { Caller } from '../http/gateway-request.js';
import { COMPANY_EXAMPLES, COMPANY_NOT_FOUND_EXAMPLES, COMPANY_PARAMETER_EXAMPLES } from '../openapi/account-examples.js';
import { ApiResult, RATE_LIMIT_HEADERS } from '../openapi/decorators.js';
import { ref } from '../openapi/schemas.js';

@ApiKeyController('account', 'api/v1/companies')
export class CompaniesController {
  constructor(private readonly resources: GatewayResources) {}

  @Get(':company_id')
  @ApiOperation({ operationId: 'getCompany', summary: "The caller's own company profile; any other company answers 404" })
  @ApiParam({ name: 'company_id', schema: { type: 'string', format: 'uuid' }, examples: COMPANY_PARAMETER_EXAMPLES })
  @ApiResult(200, 'The company', 'Company', COMPANY_EXAMPLES)
  @ApiResponse({
    status: 404,
    description: 'Not your company (or none)',
    headers: RATE_LIMIT_HEADERS,
    content: { 'application/json': { schema: ref('ErrorEnvelope'), examples: COMPANY_NOT_FOUND_EXAMPLES } },
  })
  async get(@CurrentCaller() caller: Caller, @Param('company_id') companyId: string) {
    // Another company's id answers exactly like an id that does not exist: existence is not disclosed.
    // A UUID in capitals is the same id (as every other route reads ids).
    const company = companyId.toLowerCase() === caller.company.id ? await this.resources.companies.findById(caller.company.id) : null;
    if (!company) throw new HttpException({ detail: 'Company not found' }, 404);
    return presentCompany(company);
  }
}
