import { applyDecorators, Body, Get, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiParam } from '@nestjs/swagger';
import {
  createApiKey,
  createCompany,
  getCompany,
  presentApiKey,
  presentCertificate,
  presentCompany,
  setCertificate,
  updateCompany,
} from '@talao/company-admin';
import { AdminController } from '../auth/authenticated-controllers.js';
import { GatewayResources } from '../gateway-resources.js';
import { ApiErrors, ApiJsonBody, ApiResult } from '../openapi/decorators.js';

const companyIdParam = ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } });

/** A route that changes one company (its id in the path): 200 with `result`, 404 for an unknown id, the body's 413/415/422. */
function CompanyChange(
  route: MethodDecorator,
  operation: {
    operationId: string;
    summary: string;
    body: Parameters<typeof ApiJsonBody>[0];
    result: [description: string, schema: NonNullable<Parameters<typeof ApiResult>[2]>];
  },
) {
  const { body, result, ...described } = operation;
  return applyDecorators(
    route,
    HttpCode(200),
    ApiOperation(described),
    companyIdParam,
    ApiJsonBody(body),
    ApiResult(200, ...result),
    ApiErrors(404, 413, 415, 422),
  );
}

/** Operators only (Authorization: Bearer $ADMIN_TOKEN). The logic is in @talao/company-admin, shared with the CLI. */
@AdminController('admin/v1/companies')
export class AdminCompaniesController {
  constructor(private readonly resources: GatewayResources) {}

  /** Runs an operator's change, then lets this process's caches of companies and certificates forget. */
  private async changing<T>(change: () => Promise<T>): Promise<T> {
    try {
      return await change();
    } finally {
      this.resources.configurationChanged();
    }
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'adminCreateCompany', summary: 'Register a company (CNPJ, IBGE city and state, plan)' })
  @ApiJsonBody('CreateCompanyRequest')
  @ApiResult(201, 'Created', 'Company')
  @ApiErrors(409, 413, 415, 422)
  async create(@Body() body: unknown) {
    return presentCompany(await this.changing(() => createCompany(this.resources.companyAdmin, body)));
  }

  @Get(':id')
  @ApiOperation({ operationId: 'adminGetCompany', summary: 'A company' })
  @companyIdParam
  @ApiResult(200, 'The company', 'Company')
  @ApiErrors(404)
  async get(@Param('id') id: string) {
    return presentCompany(await getCompany(this.resources.companyAdmin, id));
  }

  @CompanyChange(Patch(':id'), {
    operationId: 'adminUpdateCompany',
    summary: "Change a company's profile fields (names, regime, registrations, contact, NFS-e defaults, approximate taxes)",
    body: 'UpdateCompanyRequest',
    result: ['The company as changed', 'Company'],
  })
  async update(@Param('id') id: string, @Body() body: unknown) {
    return presentCompany(await this.changing(() => updateCompany(this.resources.companyAdmin, id, body)));
  }

  @CompanyChange(Put(':id/certificate'), {
    operationId: 'adminSetCertificate',
    summary: "Upload the company's A1 certificate (PKCS#12, base64) and its password; answers the metadata only",
    body: 'SetCertificateRequest',
    result: ['The certificate now in use', 'Certificate'],
  })
  async setCertificate(@Param('id') id: string, @Body() body: unknown) {
    return presentCertificate(await this.changing(() => setCertificate(this.resources.companyAdmin, id, body)));
  }

  @Post(':id/api-keys')
  @HttpCode(201)
  @ApiOperation({ operationId: 'adminCreateApiKey', summary: 'Create an API key (at most 3 active per company); the key is shown once' })
  @companyIdParam
  @ApiJsonBody('CreateApiKeyRequest')
  @ApiResult(201, 'Created; `key` is never shown again', 'CreatedApiKey')
  @ApiErrors(404, 409, 413, 415, 422)
  async createApiKey(@Param('id') id: string, @Body() body: unknown) {
    const { apiKey, key } = await this.changing(() => createApiKey(this.resources.companyAdmin, id, body));
    return { ...presentApiKey(apiKey), key };
  }
}
