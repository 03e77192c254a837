import { Controller, Get, HttpException, Param, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { presentCompany } from '@talao/company-admin';
import { ApiKeyGuard, CurrentCaller } from '../auth/api-key.guard.js';
import { GatewayResources } from '../gateway-resources.js';
import type { Caller } from '../http/gateway-request.js';
import { ApiErrors, ApiResult } from '../openapi/decorators.js';

@ApiTags('account')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('api/v1/companies')
export class CompaniesController {
  constructor(private readonly resources: GatewayResources) {}

  @Get(':company_id')
  @ApiOperation({ operationId: 'getCompany', summary: "The caller's own company profile; any other company answers 404" })
  @ApiParam({ name: 'company_id', schema: { type: 'string', format: 'uuid' } })
  @ApiResult(200, 'The company', 'Company')
  @ApiErrors(401, 404, 429)
  async get(@CurrentCaller() caller: Caller, @Param('company_id') companyId: string) {
    // Another company's id answers exactly like an id that does not exist: existence is not disclosed.
    const company = companyId === caller.company.id ? await this.resources.companies.findById(companyId) : null;
    if (!company) throw new HttpException({ detail: 'Company not found' }, 404);
    return presentCompany(company);
  }
}
